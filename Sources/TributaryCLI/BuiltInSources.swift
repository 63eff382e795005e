import ExecAdapter
import GoogleNewsAdapter
import JSONFileAdapter
import PushAdapter
import RSSAdapter
public import TributaryCore

/// The adapters built into `tributary`: the composition root, and the one list to extend when adding an adapter.
public enum BuiltInSources {
    /// Every built-in adapter, in the order `tributary sources` lists them.
    public static let all: [any Source.Type] = [
        RSSSource.self,
        GoogleNewsSource.self,
        JSONFileSource.self,
        ExecSource.self,
        PushSource.self,
    ]

    /// A registry of the built-in adapters.
    public static var registry: SourceRegistry { SourceRegistry(all) }
}
