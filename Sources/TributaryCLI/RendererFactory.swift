import Renderers
import TributaryCore

/// Chooses the renderer for an output format.
enum RendererFactory {
    /// The renderer for `format`; `width` and `color` only matter for text.
    static func make(_ format: OutputFormat, width: Int = 80, color: Bool = false) -> any Renderer {
        switch format {
        case .html: HTMLRenderer()
        case .markdown: MarkdownRenderer()
        case .text: TextRenderer(width: width, color: color)
        case .json: JSONFeedRenderer()
        }
    }
}
