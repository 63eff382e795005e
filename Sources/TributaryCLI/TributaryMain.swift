import ArgumentParser
public import TributaryCore

/// The entry point of the `tributary` executable, and of any executable that adds its own adapters.
///
/// A third-party package passes its adapters alongside the built-in ones:
///
/// ```swift
/// import TributaryCLI
/// await TributaryMain.run(sources: BuiltInSources.all + [NotesSource.self])
/// ```
public enum TributaryMain {
    /// The adapters the running command may use. A task-local rather than a global, so tests can run commands with
    /// their own registries side by side.
    @TaskLocal public static var sources: [any Source.Type] = BuiltInSources.all

    /// Parses the process arguments, runs the command and exits with its exit code.
    public static func run(sources: [any Source.Type] = BuiltInSources.all) async {
        await $sources.withValue(sources) {
            await TributaryCommand.main()
        }
    }
}
