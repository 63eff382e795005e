import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard error and asking about the terminal.
enum StandardError {
    /// Writes one line (a newline is added) to standard error, unbuffered.
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes text without adding a newline.
    static func writeRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Facts about where output goes.
enum Terminal {
    /// Whether the file descriptor is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width of the terminal on `descriptor`, else `$COLUMNS`, else 80.
    static func width(of descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int
    {
        var size = winsize()
        if isTerminal(descriptor), ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Whether colour may be used on `descriptor`: only on a terminal, never with `NO_COLOR` set
    /// (https://no-color.org) or `TERM=dumb`.
    static func allowsColor(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        guard isTerminal(descriptor) else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}
