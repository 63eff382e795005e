#ifndef TRIBUTARY_CLIBXML2_SHIM_H
#define TRIBUTARY_CLIBXML2_SHIM_H

// libxml2 built with ICU declares ICU types that clash with Foundation's (UErrorCode); the parser never needs them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
#include <libxml/encoding.h>
#include <libxml/entities.h>
#include <libxml/tree.h>

#endif
