/// The in-process transport of a `"simulate": {...}` source: the simulator's timeline, no socket.
///
/// The timeline starts when the transport is made (once per run), so `seq` is global for the run just as it is
/// for a server's lifetime, and a reconnect after a simulated drop resumes with `after=` like a real one.
struct SimulatedPushTransport: PushTransport {
    let timeline: PushSimulatorTimeline

    func connect(to url: String, onMessage: @escaping @Sendable (PushMessage) async -> Void) async throws {
        _ = try await timeline.serve(after: PushURL.after(in: url)) { frame in await onMessage(.text(frame)) }
    }
}
