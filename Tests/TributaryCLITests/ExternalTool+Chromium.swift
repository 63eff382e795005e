import TestSupport

extension ExternalTool {
    /// Headless Chromium (Debian's `chromium`), which loads the HTML digest as a browser would.
    static let chromium = ExternalTool(
        names: ["chromium", "chromium-browser", "google-chrome"],
        install: "apt-get install chromium"
    )
}
