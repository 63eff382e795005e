import ArgumentParser

/// `--since`: which items `digest` and `summary` show, declared once for both.
struct SinceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only items first seen after this: last (the previous digest), a duration (48h, 7d) or an RFC 3339 date.",
            valueName: "last|duration|date"
        )
    )
    var since: SinceOption?
}
