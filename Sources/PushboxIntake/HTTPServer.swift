import CMicroHTTPD
import Foundation
import PushboxPayload
import PushboxSystem
import Synchronization

// @unchecked: `daemons` is set in init and emptied once by stop(), called by its owner once
// (IntakeServer, PortListener); libmicrohttpd calls back on its own threads with `Context` only.
/// libmicrohttpd serving HTTP/1.1: on a socket pushbox bound itself (the Unix socket), or on
/// connections pushbox's TCP port accepted and hands over with `add`. Idle connections closed,
/// connections and header memory capped. Every connection is accepted by pushbox and handed in
/// turn to one of `threads` single-threaded daemons (libmicrohttpd's own accepting let whichever
/// pool thread woke first take a burst). A whole request whose route takes batches (a push) is
/// handed to the `RequestBatcher` and its connection parked until the batch is committed, so no
/// daemon thread waits for a commit and the requests in flight share one. An answer decided before
/// the body ends (a refusal from the head, a body over the handler's limit) waits until the body
/// is read and thrown away, up to `EarlyAnswer.drainLimit`, so the client reads it on a connection
/// that stays open; a client that asked `Expect: 100-continue` gets it at once, without the body.
public final class HTTPServer: @unchecked Sendable {
    // `daemons` is set in init and emptied once by `stop`, which the owner calls after every
    // thread that adds connections has stopped.
    private var daemons: [OpaquePointer]
    /// How many connections were handed over: the next goes to daemon `count % daemons.count`.
    private let handedCount = Atomic<Int>(0)
    private let context: Unmanaged<Context>
    private let listenFD: Int32?
    /// Set while a thread accepts from `listenFD`; stopped before the daemons.
    private let acceptor: Acceptor?

    /// Counts for tests: body bytes ever handed to the application.
    public var bodyBytesRead: Int { context.takeUnretainedValue().bodyBytes }

    /// What libmicrohttpd's callbacks share on every thread of the daemon.
    final class Context: Sendable {
        let handler: HTTPRequestHandler
        let connection: ConnectionInfo
        /// Connections handed over with a description of their own (a tunnel's), by socket, with
        /// the token of the hand-over so a reused descriptor is never described wrongly.
        let handedOver = Locked<[Int32: (token: UInt64, connection: ConnectionInfo)]>([:])
        /// Answers and streams whose connections are parked, ended before the daemons stop.
        let parked = ParkedAnswers()
        /// Requests of batching routes, handed to the handler together.
        let batcher: RequestBatcher
        private let bodyBytesSeen = Atomic<Int>(0)
        var bodyBytes: Int { bodyBytesSeen.load(ordering: .relaxed) }
        init(handler: HTTPRequestHandler, connection: ConnectionInfo) {
            self.handler = handler
            self.connection = connection
            batcher = RequestBatcher(handler: handler)
        }
        func addBody(_ n: Int) { bodyBytesSeen.add(n, ordering: .relaxed) }
    }

    /// State of one request across libmicrohttpd's calls (one thread at a time).
    final class RequestState {
        var head: RequestHead
        var body: [UInt8] = []
        /// Body bytes received, kept or not.
        var received = 0
        var maxBody = 0
        var handsOverOversize = false
        /// Its route takes batches: handed to the batcher once whole.
        var batches = false
        var answered = false
        /// The answer decided before the body ended, sent once it is read.
        var pending: HTTPResponse?
        var authentication = Arrival.Authentication.none
        /// The answer's `afterSent`, called when libmicrohttpd says the request is complete.
        var afterSent: (@Sendable () -> Void)?
        /// A later answer once given, set on the thread that gave it; the connection is resumed then.
        let late = Locked<HTTPResponse?>(nil)
        /// The key of what `ParkedAnswers` keeps for this request.
        var parkedKey: Int?
        init(head: RequestHead) { self.head = head }

        /// The whole request as the handler takes it.
        var request: HTTPRequest {
            var request = HTTPRequest(method: head.method, path: head.path, headers: head.headers, body: body, arrival: head.arrival(authentication))
            request.query = head.query
            if received > body.count { request.bodyLength = received }
            return request
        }
    }

    /// Serves `listenFD` (already listening), accepting from it on a thread of its own.
    /// `connection` describes every request it takes.
    public init(
        listenFD: Int32, handler: HTTPRequestHandler, connection: ConnectionInfo, threads: Int = 2, idleTimeout: Int = 30,
        connectionLimit: Int = 256, headerMemory: Int = 32 * 1024
    ) throws(ListenError) {
        self.listenFD = listenFD
        let context = Unmanaged.passRetained(Context(handler: handler, connection: connection))
        self.context = context
        guard let acceptor = Acceptor(listenFD: listenFD) else {
            context.release()
            throw ListenError(message: "cannot make a pipe for the socket's listener")
        }
        daemons = try Self.start(threads, idleTimeout, connectionLimit, headerMemory, context)
        self.acceptor = acceptor
        acceptor.start { [self] fd in add(fd) }
    }

    /// Serves the connections handed over with `add`.
    public init(
        handler: HTTPRequestHandler, connection: ConnectionInfo, threads: Int = 2, idleTimeout: Int = 30,
        connectionLimit: Int = 256, headerMemory: Int = 32 * 1024
    ) throws(ListenError) {
        listenFD = nil
        acceptor = nil
        let context = Unmanaged.passRetained(Context(handler: handler, connection: connection))
        self.context = context
        daemons = try Self.start(threads, idleTimeout, connectionLimit, headerMemory, context)
    }

    /// `threads` daemons of one thread each, sharing the connection limit; releases `context`
    /// when one cannot start.
    private static func start(
        _ threads: Int, _ idleTimeout: Int, _ connectionLimit: Int, _ headerMemory: Int, _ context: Unmanaged<Context>
    ) throws(ListenError) -> [OpaquePointer] {
        let count = max(1, threads)
        var daemons: [OpaquePointer] = []
        for i in 0..<count {
            // The limit split as evenly as it divides: the first daemons take one more.
            let limit = connectionLimit / count + (i < connectionLimit % count ? 1 : 0)
            guard
                let daemon = pb_mhd_start_external(
                    1, UInt32(idleTimeout), UInt32(max(1, limit)), headerMemory, HTTPServer.access, HTTPServer.completed, context.toOpaque())
            else {
                let why = String(cString: strerror(errno))  // read before release can change errno
                for d in daemons { MHD_stop_daemon(d) }
                context.release()
                throw ListenError(message: "libmicrohttpd could not start: \(why)")
            }
            daemons.append(daemon)
        }
        return daemons
    }

    /// Hands an accepted connection over, to the daemons in turn; the server owns and closes it
    /// from then on. `connection` describes its requests instead of the server's description
    /// (HTTP/1.1 inside a CONNECT tunnel says so); `forget(_:)` with the returned token once the
    /// caller is done.
    @discardableResult
    public func add(_ fd: Int32, connection: ConnectionInfo? = nil) -> UInt64? {
        guard !daemons.isEmpty else {
            close(fd)
            return nil
        }
        let daemon = daemons[handedCount.add(1, ordering: .relaxed).oldValue % daemons.count]
        let token = Self.handOvers.add(1, ordering: .relaxed).newValue
        if let connection { context.takeUnretainedValue().handedOver.withLock { $0[fd] = (token, connection) } }
        guard pb_mhd_add(daemon, fd) == 1 else {
            forget(fd, token: token)
            return nil
        }
        return token
    }

    /// Drops the description `add` registered for `fd`, unless the descriptor was handed over again since.
    public func forget(_ fd: Int32, token: UInt64) {
        context.takeUnretainedValue().handedOver.withLock { table in
            if table[fd]?.token == token { table[fd] = nil }
        }
    }

    private static let handOvers = Atomic<UInt64>(0)

    /// Stops serving and closes the listening socket.
    public func stop() {
        guard !daemons.isEmpty else { return }
        acceptor?.stop()
        let stopping = daemons
        daemons = []
        // Pushes taken are committed and answered first (a 503 to one its batch then stores
        // would make a retry deliver it twice); then parked connections are resumed:
        // libmicrohttpd must not stop with one suspended.
        context.takeUnretainedValue().batcher.waitUntilIdle(timeout: 10)
        context.takeUnretainedValue().parked.stopAll()
        for d in stopping { MHD_stop_daemon(d) }
        if let listenFD { close(listenFD) }
        context.release()
    }

    deinit { stop() }

    static func queue(_ context: Context, _ state: RequestState, _ connection: OpaquePointer?, _ response: HTTPResponse) -> MHD_Result {
        let r: OpaquePointer?
        if let stream = response.stream {
            guard let key = context.parked.park(.stream(stream), {}) else {
                return queue(context, state, connection, APIv1.failure(503, "ServiceUnavailable", "pushbox is stopping"))
            }
            state.parkedKey = key
            let reader = StreamReader(stream: stream, connection: ParkedConnection(connection), parked: context.parked, key: key)
            r = pb_mhd_stream_response(Unmanaged.passRetained(reader).toOpaque(), streamRead, streamDone)
        } else {
            r = response.body.withUnsafeBytes { pb_mhd_response($0.baseAddress, $0.count) }
        }
        defer { MHD_destroy_response(r) }
        for (name, value) in response.headers { MHD_add_response_header(r, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), r)
    }

    static func answer(_ context: Context, _ state: RequestState, _ connection: OpaquePointer?, _ response: HTTPResponse) -> MHD_Result {
        state.answered = true
        if let later = response.later {
            // A later answer that is itself later (chaos delaying a batched push) parks anew.
            if let key = state.parkedKey {
                context.parked.release(key)
                state.parkedKey = nil
            }
            // Parked until the answer is given: the access handler is called again on resume.
            guard let key = context.parked.park(.later(later), { MHD_suspend_connection(connection) }) else {
                return answer(context, state, connection, APIv1.failure(503, "ServiceUnavailable", "pushbox is stopping"))
            }
            state.parkedKey = key
            let (late, parked) = (state.late, ParkedConnection(connection))
            later.whenResolved { response in
                late.withLock { $0 = response }
                MHD_resume_connection(parked.pointer)
            }
            return .YES
        }
        if let key = state.parkedKey {
            context.parked.release(key)
            state.parkedKey = nil
        }
        state.afterSent = response.afterSent
        state.head.bodyBytes = state.received
        context.handler.answered(state.head, response)
        // Chaos on HTTP/1.1 (no streams, no GOAWAY): the connection closed without an answer.
        if response.connectionFault != nil { return .NO }
        return queue(context, state, connection, response)
    }

    static let access: pb_mhd_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
        let context = Unmanaged<Context>.fromOpaque(cls!).takeUnretainedValue()
        guard let slot = requestContext, let size = uploadSize else { return .NO }
        if slot.pointee == nil {
            // First call: request line and headers only, nothing of the body read yet.
            var headers: [(name: String, value: String)] = []
            withUnsafeMutablePointer(to: &headers) { pointer in
                _ = MHD_get_connection_values(
                    connection, .HEADER_KIND,
                    { out, _, key, value in
                        out!.assumingMemoryBound(to: [(name: String, value: String)].self).pointee
                            .append((PushHeaders.lowered(key.map { String(cString: $0) } ?? ""), value.map { String(cString: $0) } ?? ""))
                        return .YES
                    }, pointer)
            }
            var query: [String: String] = [:]
            withUnsafeMutablePointer(to: &query) { pointer in
                _ = MHD_get_connection_values(
                    connection, .GET_ARGUMENT_KIND,
                    { out, _, key, value in
                        if let key {
                            out!.assumingMemoryBound(to: [String: String].self).pointee[String(cString: key)] =
                                value.map { String(cString: $0) } ?? ""
                        }
                        return .YES
                    }, pointer)
            }
            let fd = pb_mhd_connection_fd(connection)
            let described = context.handedOver.withLock { $0[fd]?.connection } ?? context.connection
            var head = RequestHead(
                method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                headers: headers, connection: described.freshAuth())
            head.query = query
            let state = RequestState(head: head)
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            let early = context.handler.early(head)
            state.maxBody = early.maxBody
            state.handsOverOversize = early.handsOverOversize
            state.batches = early.batches
            state.authentication = early.authentication
            let length = head.headers.last { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
            if let response = early.response {
                // Sent once the body is read, unless the client waits for 100 Continue to send
                // it, or announced more than is worth reading.
                let expectsContinue = head.headers.contains { $0.name == "expect" && $0.value.lowercased() == "100-continue" }
                if expectsContinue || length > EarlyAnswer.drainLimit { return answer(context, state, connection, response) }
                state.pending = response
            } else if early.handsOverOversize && length > EarlyAnswer.drainLimit {
                // Handled from its announced length alone; libmicrohttpd closes after the answer.
                state.received = length
                return answer(context, state, connection, context.handler.handle(state.request))
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(slot.pointee!).takeUnretainedValue()
        // A later answer was given: the connection was resumed for it.
        if let late = state.late.withLock({ $0 }) {
            state.late.withLock { $0 = nil }
            return answer(context, state, connection, late)
        }
        if size.pointee > 0 {
            let n = size.pointee
            size.pointee = 0
            if state.answered { return .YES }
            state.received += n
            let take = state.pending == nil ? min(n, state.maxBody - state.body.count) : 0
            if take > 0, let data = uploadData {
                data.withMemoryRebound(to: UInt8.self, capacity: take) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: take)) }
                context.addBody(take)
            }
            if state.received > state.maxBody && !state.handsOverOversize && state.pending == nil {
                // The body outgrew the limit: the rest is read and thrown away, then refused.
                state.pending = context.handler.tooLarge(state.head)
            }
            if state.received > EarlyAnswer.drainLimit {
                // Not worth reading further: answer now; libmicrohttpd closes after the answer.
                return answer(context, state, connection, state.pending ?? context.handler.handle(state.request))
            }
            return .YES
        }
        if state.answered { return .YES }
        if state.pending == nil && state.batches {
            if context.batcher.claimInline() {
                defer { context.batcher.endInline() }
                return answer(context, state, connection, context.handler.handle(state.request))
            }
            // Parked first, then queued: its answer may come before this call returns.
            let later = LaterAnswer()
            var waiting = HTTPResponse(status: 0)
            waiting.later = later
            let result = answer(context, state, connection, waiting)
            if state.parkedKey != nil { context.batcher.add(state.request, answer: later) }
            return result
        }
        return answer(context, state, connection, state.pending ?? context.handler.handle(state.request))
    }

    /// libmicrohttpd's reader of a streamed body: what was written, or the connection suspended
    /// until there is more.
    static let streamRead: pb_mhd_reader = { cls, _, buffer, max in
        let reader = Unmanaged<StreamReader>.fromOpaque(cls!).takeUnretainedValue()
        let connection = reader.connection
        let read = reader.stream.read(
            into: UnsafeMutableRawBufferPointer(start: buffer, count: max), park: { MHD_suspend_connection(connection.pointer) },
            wake: { MHD_resume_connection(connection.pointer) })
        switch read {
        case .bytes(let n): return n
        case .parked: return 0
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        }
    }

    /// The streamed response is gone (sent, or its connection closed).
    static let streamDone: pb_mhd_free = { cls in
        let reader = Unmanaged<StreamReader>.fromOpaque(cls!).takeRetainedValue()
        reader.parked.release(reader.key)
        reader.stream.closed()
    }

    static let completed: pb_mhd_completed = { _, _, requestContext, _ in
        guard let slot = requestContext, let pointer = slot.pointee else { return }
        // The answer is sent (or the connection is gone): what waited for it goes now.
        Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue().afterSent?()
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        slot.pointee = nil
    }
}

extension ConnectionInfo {
    /// The same connection with a token history of its own (HTTP/1.1 requests share none).
    func freshAuth() -> ConnectionInfo {
        var copy = self
        copy.auth = ConnectionAuthState()
        return copy
    }
}

/// A libmicrohttpd connection handed to the thread that resumes it: resumed only while it is
/// suspended, and a suspended connection is never freed (its daemon resumes it before stopping).
struct ParkedConnection: @unchecked Sendable {
    let pointer: OpaquePointer?
    init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}

/// What the streamed body's reader needs: the stream, its connection, where it is parked.
final class StreamReader: Sendable {
    let stream: ResponseStream
    let connection: ParkedConnection
    let parked: ParkedAnswers
    let key: Int
    init(stream: ResponseStream, connection: ParkedConnection, parked: ParkedAnswers, key: Int) {
        self.stream = stream
        self.connection = connection
        self.parked = parked
        self.key = key
    }
}
