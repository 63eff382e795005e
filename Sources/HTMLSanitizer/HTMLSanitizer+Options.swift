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

        /// Creates options; the defaults suit feed item content.
        ///
        /// - Parameters:
        ///   - maximumInputBytes: see ``maximumInputBytes``; values below 1 count as 1.
        ///   - maximumDepth: see ``maximumDepth``; values below 1 count as 1.
        ///   - keepsImages: see ``keepsImages``.
        public init(maximumInputBytes: Int = 1 << 20, maximumDepth: Int = 64, keepsImages: Bool = true) {
            self.maximumInputBytes = max(1, maximumInputBytes)
            self.maximumDepth = max(1, maximumDepth)
            self.keepsImages = keepsImages
        }
    }
}
