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

#include <stdlib.h>
#include <string.h>

// Stray end tag recovery (FeedSAXHandler.error). libxml2 2.9 answers an end tag that names no open element
// (`<entry><id>1</id></div>...`) by closing the innermost open element anyway, so `</entry>` then closes the feed and
// every later entry is "extra content at the end of the document". The two functions below let the error callback,
// which runs inside xmlParseEndTag2 before libxml2 pops its element, push a copy of the innermost element on
// libxml2's stacks (names, start tags, xml:space, namespaces): the pop that follows removes the copy and the element
// stays open, as HTML parsers ignore a stray end tag. They rely on the layout of libxml2's private push-parser
// stacks, so they only act on the versions whose layout they were checked against (2.9.11 to 2.10.x); elsewhere
// they do nothing and libxml2's own recovery applies.

/// libxml2's private `xmlStartTag`, the element of `pushTab` (parser.c, 2.9.11 to 2.10.x).
typedef struct {
    const xmlChar *prefix;
    const xmlChar *URI;
    int line;
    int nsNr;
} tributary_xml_start_tag;

/// Whether the running libxml2 has the stack layout the recovery below relies on.
static inline int tributary_xml_stack_layout_known(void) {
    int version = atoi(xmlParserVersion);
    return version >= 20911 && version < 21100;
}

/// Whether an element with the local name of `name` (a name or `prefix:name`) is open in libxml2's stack.
static inline int tributary_xml_is_open_element(xmlParserCtxtPtr context, const char *name) {
    if (name == NULL) return 1;
    const char *colon = strrchr(name, ':');
    const xmlChar *local = (const xmlChar *)(colon != NULL ? colon + 1 : name);
    for (int index = 0; index < context->nameNr; index++) {
        if (context->nameTab[index] != NULL && xmlStrEqual(context->nameTab[index], local)) return 1;
    }
    return 0;
}

/// Called from the error callback for a mismatched end tag: pushes a copy of the innermost open element so that
/// libxml2's pop after the error leaves it open. Returns 1 when done (libxml2 then still reports an end for the
/// element, which the caller must ignore), 0 when it could not be done safely.
static inline int tributary_xml_keep_element_open(xmlParserCtxtPtr context) {
    if (!tributary_xml_stack_layout_known() || context->nameNr <= 0 || context->nameNr >= context->nameMax ||
        context->pushTab == NULL || context->spaceNr <= 0 || context->spaceNr >= context->spaceMax) {
        return 0;
    }
    tributary_xml_start_tag *tags = (tributary_xml_start_tag *)context->pushTab;
    tributary_xml_start_tag top = tags[context->nameNr - 1];
    if (top.nsNr < 0 || top.nsNr > context->nsNr || context->nsNr + top.nsNr > context->nsMax) return 0;
    for (int index = 0; index < top.nsNr; index++) {
        context->nsTab[context->nsNr + index] = context->nsTab[context->nsNr - top.nsNr + index];
    }
    context->nsNr += top.nsNr;
    context->spaceTab[context->spaceNr] = context->spaceTab[context->spaceNr - 1];
    context->spaceNr += 1;
    context->space = &context->spaceTab[context->spaceNr - 1];
    tags[context->nameNr] = top;
    context->nameTab[context->nameNr] = context->name;
    context->nameNr += 1;
    return 1;
}

#endif
