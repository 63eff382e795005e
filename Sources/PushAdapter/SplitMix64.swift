/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64), so that the simulator's
/// items are the same for the same seed on every machine and every run. Not for cryptography.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly chosen index below `count` (`count` > 0), drawn from this generator only.
    mutating func index(below count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[index(below: elements.count)]
    }
}
