extension HTMLSanitizer {
    /// What an ``HTMLSanitizer`` keeps and how much input it reads.
    public struct Options: Sendable, Equatable {
        /// The most bytes of UTF-8 input read; the rest is cut at a character boundary and ignored. 1 MiB by default.
        public var maximumInputBytes: Int
        /// The deepest nesting of elements written; allowed elements nested deeper are unwrapped (their text and
        /// children are kept, their tags dropped). 64 by default.
        public var maximumDepth: Int
        /// Whether `img` elements with an http(s) `src` are kept; when `false` they are dropped (their `alt` text
        /// too). `true` by default.
        public var keepsImages: Bool
        /// Whether simple, well-formed fragments (a few common elements, every one closed, quoted attributes, the
        /// usual references) are read directly instead of by libxml2's HTML parser, which is several times faster.
        /// The output is the same either way: the directly read subset is exactly the one libxml2 reads without
        /// repairing anything, and tests and a fuzz target compare the two. `true` by default; turn it off to
        /// compare, or to rule it out.
        public var readsSimpleFragmentsDirectly: Bool

        /// Creates options; the defaults suit feed item content.
        ///
        /// - Parameters:
        ///   - maximumInputBytes: see ``maximumInputBytes``; values below 1 count as 1.
        ///   - maximumDepth: see ``maximumDepth``; values below 1 count as 1.
        ///   - keepsImages: see ``keepsImages``.
        ///   - readsSimpleFragmentsDirectly: see ``readsSimpleFragmentsDirectly``.
        public init(
            maximumInputBytes: Int = 1 << 20,
            maximumDepth: Int = 64,
            keepsImages: Bool = true,
            readsSimpleFragmentsDirectly: Bool = true
        ) {
            self.maximumInputBytes = max(1, maximumInputBytes)
            self.maximumDepth = max(1, maximumDepth)
            self.keepsImages = keepsImages
            self.readsSimpleFragmentsDirectly = readsSimpleFragmentsDirectly
        }
    }
}
