import NotesAdapter
import TributaryCLI

// The whole of a third-party executable: Tributary's command line with one more adapter.
await TributaryMain.run(sources: BuiltInSources.all + [NotesSource.self])
