import Renderers
import TributaryCore

/// Chooses the renderer for an output format.
enum RendererFactory {
    /// The renderer for `format`; `width` and `color` only matter for text, `template` only for HTML (`nil` for
    /// the built-in look).
    static func make(
        _ format: OutputFormat,
        width: Int = 80,
        color: Bool = false,
        template: HTMLTemplate? = nil
    ) -> any Renderer {
        switch format {
        case .html: HTMLRenderer(template: template)
        case .markdown: MarkdownRenderer()
        case .text: TextRenderer(width: width, color: color)
        case .json: JSONFeedRenderer()
        }
    }
}
