/*
 * sax-count: the reference for Tributary's parser benchmarks (issue 3, "Performance").
 *
 * Streams a feed through libxml2's SAX2 push parser (xmlCreatePushParserCtxt + xmlParseChunk, 64 KiB reads),
 * counts RSS <item>s and Atom <entry>s, and copies each item's title text and link (RSS <link> text, Atom
 * <link href>) into reusable buffers, the least work any real feed parser must do. Prints one line:
 *
 *     items=6551 title_bytes=512345 link_bytes=1234567
 *
 * Build: cc -O2 -o sax-count sax-count.c $(pkg-config --cflags --libs libxml-2.0)
 * Usage: sax-count [FILE]   (standard input when FILE is missing or "-")
 * No DTD or external entity is loaded and no network is used (XML_PARSE_NONET, no XML_PARSE_NOENT/DTDLOAD).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#define READ_SIZE (64 * 1024)

struct buffer {
    char *bytes;
    size_t length;
    size_t capacity;
};

struct state {
    unsigned long items;
    int depth_in_item; /* 0 outside an item; else the element depth inside it (1 = the item itself) */
    int capture;       /* 1 while inside the item's <title>, 2 inside its RSS <link> */
    struct buffer title;
    struct buffer link;
    unsigned long long title_bytes;
    unsigned long long link_bytes;
    int failed;
};

static void append(struct state *state, struct buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) {
            state->failed = 1;
            return;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

static int is_item(const xmlChar *name) {
    return strcmp((const char *)name, "item") == 0 || strcmp((const char *)name, "entry") == 0;
}

static void on_start(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                     const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)namespace_count; (void)namespaces; (void)defaulted;
    struct state *state = ((xmlParserCtxtPtr)context)->_private;
    if (state->depth_in_item == 0) {
        if (is_item(localname)) {
            state->depth_in_item = 1;
            state->title.length = 0;
            state->link.length = 0;
        }
        return;
    }
    state->depth_in_item += 1;
    if (state->depth_in_item != 2 || prefix != NULL) return; /* only the item's own, unprefixed children */
    if (strcmp((const char *)localname, "title") == 0) {
        state->capture = 1;
    } else if (strcmp((const char *)localname, "link") == 0) {
        /* Atom: <link href="..."/>; attributes come as (localname, prefix, URI, value, end) quintuples. */
        for (int index = 0; index < attribute_count; index++) {
            const xmlChar **attribute = attributes + index * 5;
            if (strcmp((const char *)attribute[0], "href") == 0 && state->link.length == 0) {
                append(state, &state->link, (const char *)attribute[3], (size_t)(attribute[4] - attribute[3]));
            }
        }
        if (state->link.length == 0) state->capture = 2; /* RSS: <link>text</link> */
    }
}

static void on_end(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    struct state *state = ((xmlParserCtxtPtr)context)->_private;
    if (state->depth_in_item == 0) return;
    if (state->depth_in_item == 2) state->capture = 0;
    state->depth_in_item -= 1;
    if (state->depth_in_item == 0) {
        state->items += 1;
        state->title_bytes += state->title.length;
        state->link_bytes += state->link.length;
    }
}

static void on_characters(void *context, const xmlChar *bytes, int length) {
    struct state *state = ((xmlParserCtxtPtr)context)->_private;
    if (state->capture == 1) append(state, &state->title, (const char *)bytes, (size_t)length);
    else if (state->capture == 2) append(state, &state->link, (const char *)bytes, (size_t)length);
}

int main(int argc, char **argv) {
    FILE *input = stdin;
    const char *name = "<stdin>";
    if (argc > 2) {
        fprintf(stderr, "usage: %s [FILE]\n", argv[0]);
        return 2;
    }
    if (argc == 2 && strcmp(argv[1], "-") != 0) {
        name = argv[1];
        input = fopen(name, "rb");
        if (!input) {
            fprintf(stderr, "sax-count: cannot open %s: %s\n", name, strerror(errno));
            return 1;
        }
    }
    LIBXML_TEST_VERSION

    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.characters = on_characters;
    handler.cdataBlock = on_characters;

    struct state state;
    memset(&state, 0, sizeof state);
    static char chunk[READ_SIZE];
    size_t count = fread(chunk, 1, 4, input); /* the first bytes let libxml2 detect the encoding */
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, chunk, (int)count, name);
    if (!context) {
        fprintf(stderr, "sax-count: cannot create a parser\n");
        return 1;
    }
    context->_private = &state;
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOWARNING);

    int status = 0;
    while ((count = fread(chunk, 1, sizeof chunk, input)) > 0) {
        if (xmlParseChunk(context, chunk, (int)count, 0) != 0) break;
    }
    if (ferror(input)) {
        fprintf(stderr, "sax-count: read error on %s\n", name);
        status = 1;
    }
    xmlParseChunk(context, NULL, 0, 1);
    if (!context->wellFormed || state.failed) {
        const xmlError *error = xmlCtxtGetLastError(context);
        fprintf(stderr, "sax-count: %s: %s", name, error && error->message ? error->message : "parse failed\n");
        status = 1;
    }
    printf("items=%lu title_bytes=%llu link_bytes=%llu\n", state.items, state.title_bytes, state.link_bytes);
    xmlFreeParserCtxt(context);
    xmlCleanupParser();
    free(state.title.bytes);
    free(state.link.bytes);
    if (input != stdin) fclose(input);
    return status;
}
