import TestSupport

extension ExternalTool {
    /// Debian's HTML Tidy (`tidy -errors -q`), the HTML5 validator the digest tests use.
    static let tidy = ExternalTool(names: ["tidy"], install: "apt-get install tidy")
}
