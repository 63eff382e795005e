import Logging
import Renderers

/// Prints log lines to standard error as `StreamLogHandler` does, with what they quote from outside made harmless:
/// an exec program's stderr, a server's error text or a feed's title can hold escape sequences that would rewrite
/// the terminal (`-v` copies them). Messages and metadata values go through ``TerminalText/sanitize(_:)``.
struct TerminalLogHandler: LogHandler {
    private var stream: StreamLogHandler

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.sanitize("\(event.message)"))"
        event.metadata = event.metadata?.mapValues { .string(TerminalText.sanitize("\($0)")) }
        stream.log(event: event)
    }
}
