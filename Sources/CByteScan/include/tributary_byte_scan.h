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

#endif
