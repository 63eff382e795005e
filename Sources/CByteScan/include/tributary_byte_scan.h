#ifndef TRIBUTARY_BYTE_SCAN_H
#define TRIBUTARY_BYTE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The bytes a scan stops at: any byte below `below` (0 for none), or equal to one of `equal[0..<count]`.
typedef struct {
    uint8_t below;
    uint8_t count;
    uint8_t equal[6];
} tributary_byte_set;

#if defined(__SSE2__)
/// The bits of the bytes of `chunk` that are in `set` (bit n for byte n); `equal` has all six slots filled.
static inline unsigned tributary_chunk_hits(__m128i chunk, const tributary_byte_set *set) {
    __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[0])),
                                _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[1])));
    hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[2])),
                                           _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[3]))));
    hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[4])),
                                           _mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)set->equal[5]))));
    if (set->below > 0) {
        // byte < below  <=>  min(byte, below - 1) == byte (unsigned).
        const __m128i below_max = _mm_set1_epi8((char)(uint8_t)(set->below - 1));
        hits = _mm_or_si128(hits, _mm_cmpeq_epi8(_mm_min_epu8(chunk, below_max), chunk));
    }
    return (unsigned)_mm_movemask_epi8(hits);
}
#endif

/// The index of the first byte of `bytes[index..<length]` in `set`, or `length` when there is none.
///
/// Sixteen bytes at a time with SSE2 on x86-64 (where it is always available), a byte at a time elsewhere: the
/// escaping and scanning loops of the JSON writer and the HTML sanitizer spend most of their time looking for the
/// next byte that needs work in long runs of text and URLs, and Swift's SIMD types do not compile to vector code
/// here. Inline, so that each call site's constant set folds into its loop.
static inline size_t tributary_find_first(const uint8_t *bytes, size_t index, size_t length, tributary_byte_set set) {
    if (index >= length) return length;
    if (set.count > 6) set.count = 6;
    if (set.count == 0 && set.below == 0) return length;  // nothing can be found
    // Unused slots repeat a byte already in the set (the first one; or 0, which is below any threshold), so that
    // every slot is compared without a branch.
    const uint8_t fill = set.count > 0 ? set.equal[0] : 0;
    for (int position = set.count; position < 6; position++) set.equal[position] = fill;
#if defined(__SSE2__)
    while (index + 16 <= length) {
        const unsigned hits = tributary_chunk_hits(_mm_loadu_si128((const __m128i *)(const void *)(bytes + index)), &set);
        if (hits != 0) return index + (size_t)__builtin_ctz(hits);
        index += 16;
    }
    if (index < length && length >= 16) {
        // The tail: the last sixteen bytes, without those before `index`.
        const size_t start = length - 16;
        const unsigned hits =
            tributary_chunk_hits(_mm_loadu_si128((const __m128i *)(const void *)(bytes + start)), &set) >> (index - start);
        return hits != 0 ? index + (size_t)__builtin_ctz(hits) : length;
    }
#endif
    for (; index < length; index++) {
        const uint8_t byte = bytes[index];
        if (byte < set.below || byte == set.equal[0] || byte == set.equal[1] || byte == set.equal[2] ||
            byte == set.equal[3] || byte == set.equal[4] || byte == set.equal[5]) {
            return index;
        }
    }
    return length;
}

#if defined(__SSE2__)
/// The bits of the bytes of `chunk` that are not plain URL bytes: not an ASCII letter or digit, and not one of
/// `-._~!$&'()*+,;=:@/?` (RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/` and `?`).
static inline unsigned tributary_chunk_non_url(__m128i chunk) {
    // Signed compares: bytes from 0x80 up are negative, so `chunk < 0x21` catches them with the controls and space.
    __m128i hits = _mm_or_si128(_mm_cmplt_epi8(chunk, _mm_set1_epi8(0x21)), _mm_cmpgt_epi8(chunk, _mm_set1_epi8(0x7A)));
    hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x22)),    // "
                                           _mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x23))));  // #
    hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x25)),    // %
                                           _mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x3C))));  // <
    hits = _mm_or_si128(hits, _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x3E)),    // >
                                           _mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x60))));  // `
    // [ \ ] ^ (0x5B to 0x5E); above 0x7A (caught above) only ~ (0x7E) is plain.
    hits = _mm_or_si128(hits, _mm_and_si128(_mm_cmpgt_epi8(chunk, _mm_set1_epi8(0x5A)),
                                            _mm_cmplt_epi8(chunk, _mm_set1_epi8(0x5F))));
    hits = _mm_andnot_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(0x7E)), hits);
    return (unsigned)_mm_movemask_epi8(hits);
}
#endif

/// Whether `byte` is a plain URL byte, as `tributary_chunk_non_url` tells sixteen at a time.
static inline int tributary_is_url_byte(uint8_t byte) {
    if ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)) return 1;
    switch (byte) {
    case 0x2D: case 0x2E: case 0x5F: case 0x7E: case 0x21: case 0x24: case 0x26: case 0x27: case 0x28: case 0x29:
    case 0x2A: case 0x2B: case 0x2C: case 0x3B: case 0x3D: case 0x3A: case 0x40: case 0x2F: case 0x3F:
        return 1;
    default:
        return 0;
    }
}

/// The index of the first byte of `bytes[index..<length]` that is not a plain URL byte (see
/// `tributary_chunk_non_url`), or `length` when there is none: the sanitizer checks the links it keeps as written
/// sixteen bytes at a time.
static inline size_t tributary_find_non_url_byte(const uint8_t *bytes, size_t index, size_t length) {
#if defined(__SSE2__)
    while (index + 16 <= length) {
        const unsigned hits = tributary_chunk_non_url(_mm_loadu_si128((const __m128i *)(const void *)(bytes + index)));
        if (hits != 0) return index + (size_t)__builtin_ctz(hits);
        index += 16;
    }
#endif
    for (; index < length; index++) {
        if (!tributary_is_url_byte(bytes[index])) return index;
    }
    return length;
}

/// Whether `byte` is a control character that XML 1.0 forbids in a document: below 0x20, NUL included, but tab,
/// line feed and carriage return.
static inline int tributary_is_xml_forbidden_control(uint8_t byte) {
    return byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D;
}

/// The index of the first byte of `bytes[index..<length]` that is a control character XML forbids (see
/// `tributary_is_xml_forbidden_control`), or `length` when there is none: the parser drops them before libxml2, which
/// gives up on one inside a CDATA section and loses the rest of the feed.
static inline size_t tributary_find_xml_control(const uint8_t *bytes, size_t index, size_t length) {
#if defined(__SSE2__)
    const __m128i highest = _mm_set1_epi8(0x1F);
    const __m128i tab = _mm_set1_epi8(0x09), line_feed = _mm_set1_epi8(0x0A), carriage_return = _mm_set1_epi8(0x0D);
    // Thirty-two bytes at a time, looked at closely only when one is below 0x20 (a feed has a line break every few
    // dozen bytes at most, often none): a document's scan then costs about a third of an instruction a byte.
    while (index + 32 <= length) {
        const __m128i first = _mm_loadu_si128((const __m128i *)(const void *)(bytes + index));
        const __m128i second = _mm_loadu_si128((const __m128i *)(const void *)(bytes + index + 16));
        // byte <= 0x1F  <=>  min(byte, 0x1F) == byte (unsigned).
        const __m128i first_low = _mm_cmpeq_epi8(_mm_min_epu8(first, highest), first);
        const __m128i second_low = _mm_cmpeq_epi8(_mm_min_epu8(second, highest), second);
        if (_mm_movemask_epi8(_mm_or_si128(first_low, second_low)) != 0) {
            const unsigned first_hits = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(
                _mm_or_si128(_mm_cmpeq_epi8(first, tab),
                             _mm_or_si128(_mm_cmpeq_epi8(first, line_feed), _mm_cmpeq_epi8(first, carriage_return))),
                first_low));
            if (first_hits != 0) return index + (size_t)__builtin_ctz(first_hits);
            const unsigned second_hits = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(
                _mm_or_si128(_mm_cmpeq_epi8(second, tab),
                             _mm_or_si128(_mm_cmpeq_epi8(second, line_feed), _mm_cmpeq_epi8(second, carriage_return))),
                second_low));
            if (second_hits != 0) return index + 16 + (size_t)__builtin_ctz(second_hits);
        }
        index += 32;
    }
#endif
    for (; index < length; index++) {
        if (tributary_is_xml_forbidden_control(bytes[index])) return index;
    }
    return length;
}

#endif
