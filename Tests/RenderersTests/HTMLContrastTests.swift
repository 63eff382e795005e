import Foundation
import Renderers
import Testing

/// Reads the colours of the built-in template's light and dark themes and checks the WCAG 2 contrast of every
/// text colour against the backgrounds it is drawn on: at least 4.5:1 (level AA for normal text).
@Suite struct HTMLContrastTests {
    /// The `--name: #rrggbb` variables of each theme, light first.
    static func themes() throws -> [[String: String]] {
        let url = try #require(HTMLTemplate.builtInURL)
        let css = try String(contentsOf: url, encoding: .utf8)
        let light = try #require(css.range(of: ":root {"))
        let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        return [css[light.upperBound..<dark.lowerBound], css[dark.upperBound...]].map { text in
            let block = text.prefix { $0 != "}" }
            var variables: [String: String] = [:]
            for match in block.matches(of: /--([a-z]+):\s*(#[0-9a-fA-F]{6})/) {
                variables[String(match.output.1)] = String(match.output.2)
            }
            return variables
        }
    }

    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        let channels = [value >> 16, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
        let linear = channels.map { $0 <= 0.039_28 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ first: String, _ second: String) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test func everyTextColourHasAContrastOfAtLeast4_5InBothThemes() throws {
        let themes = try Self.themes()
        #expect(themes.count == 2)
        for (name, theme) in zip(["light", "dark"], themes) {
            for text in ["fg", "muted", "link", "new", "failed"] {
                for background in ["bg", "chip"] {
                    let foreground = try #require(theme[text], "\(name) theme has no --\(text)")
                    let backdrop = try #require(theme[background], "\(name) theme has no --\(background)")
                    let ratio = Self.contrast(foreground, backdrop)
                    #expect(ratio >= 4.5, "\(name): --\(text) on --\(background) is \(ratio):1")
                }
            }
        }
    }

    @Test func theContrastFormulaMatchesKnownValues() {
        #expect(abs(Self.contrast("#000000", "#ffffff") - 21) < 0.01)
        #expect(abs(Self.contrast("#777777", "#ffffff") - 4.48) < 0.01)
    }
}
