import CNGHTTP2
import Foundation
import PushboxJSON
import PushboxPayload

// @unchecked: the session and every `var` belong to the loop's thread (nghttp2's callbacks run
// inside mem_recv/mem_send on it); other threads reach a connection only through its loop's
// inbox. PortTests runs a hundred concurrent streams on one connection. The `var`s a request
// touches in every callback (`streams`, the output, `pending`, a stream's state) skip the run-time
// exclusivity check for that reason; a debug build once checked them under the whole suite.
/// One HTTP/2 connection on pushbox's port (h2 over TLS, or h2c), served by nghttp2 on its
/// listener's `HTTP2Loop`: many concurrent streams. The loop reads it when its socket is
/// ready, and the requests it completes join that round's batch. A body over a refusing
/// route's limit is answered 413 at once; idle connections get GOAWAY with `IdleTimeout`, and
/// a stopping listener GOAWAY with `Shutdown`.
final class HTTP2Connection: @unchecked Sendable {
    static let maxConcurrentStreams: UInt32 = 1000
    /// Header bytes one request may carry (names and values); more resets the stream.
    static let maxHeaderBytes = 16 * 1024

    let stream: ByteStream
    let fd: Int32
    let connection: ConnectionInfo
    let loop: HTTP2Loop
    let idleTimeoutMs: Int
    /// Closes the socket when the connection ends; told whether chaos reset it (then no TLS
    /// close_notify is sent: the close is the TCP RST).
    private let onEnd: (Bool) -> Void
    private var initial: [UInt8]
    private var session: OpaquePointer?
    @exclusivity(unchecked) var streams: [Int32: StreamState] = [:]
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var outputOffset = 0

    // The loop's bookkeeping.
    /// Requests handed to the loop and not answered yet.
    @exclusivity(unchecked) var pending = 0
    /// Whether the loop settles it this round, and whether it reads it again next round.
    var touched = false
    var rereading = false
    private(set) var ended = false
    private var goingAway = false
    /// When a connection that is going away ends whatever is still in flight.
    private var lastChance: UInt64?
    /// When a connection that must close (a protocol error, a chaos GOAWAY) closes, written or not.
    private var closing: UInt64?
    private var lastActivity: UInt64 = 0
    /// The chaos rules' version this connection's settings follow, and the stream limit it announced.
    private var chaosVersion = -1
    private var announcedMaxStreams = HTTP2Connection.maxConcurrentStreams
    /// A chaos fault ended the connection: `reset` closes it with a TCP RST.
    private var endedByChaos: ConnectionFault?

    /// One request and its answer.
    // Unchecked exclusivity: a stream's state is touched on its loop's thread alone, one callback
    // at a time (the run-time check cost 17 `swift_beginAccess` calls a request).
    final class StreamState {
        @exclusivity(unchecked) var method = "", path = "", authority: String?
        @exclusivity(unchecked) var query: [String: String] = [:]
        @exclusivity(unchecked) var headers: [(name: String, value: String)] = []
        @exclusivity(unchecked) var headerBytes = 0
        @exclusivity(unchecked) var head: RequestHead?
        @exclusivity(unchecked) var body: [UInt8] = []
        /// Body bytes received, kept or not.
        @exclusivity(unchecked) var received = 0
        @exclusivity(unchecked) var maxBody = 0
        @exclusivity(unchecked) var handsOverOversize = false
        @exclusivity(unchecked) var authentication = Arrival.Authentication.none
        @exclusivity(unchecked) var answered = false
        @exclusivity(unchecked) var response: [UInt8] = []
        @exclusivity(unchecked) var responseOffset = 0
        /// The answer's `afterSent`, called when the stream closes (its last frame sent).
        @exclusivity(unchecked) var afterSent: (@Sendable () -> Void)?
        /// The body written as it comes, when the answer streams.
        @exclusivity(unchecked) var responseStream: ResponseStream?
        /// An answer given later, not given yet.
        @exclusivity(unchecked) var later: LaterAnswer?
        /// Whether the stream keeps the connection from going idle (a later answer, a stream).
        var isLong: Bool { responseStream != nil || later.map { !$0.isResolved } == true }
    }

    /// A connection whose handshake is done; `initial` holds bytes already read from it.
    init(
        stream: ByteStream, fd: Int32, connection: ConnectionInfo, loop: HTTP2Loop, idleTimeoutMs: Int,
        initial: [UInt8], onEnd: @escaping (Bool) -> Void
    ) {
        self.stream = stream
        self.fd = fd
        self.connection = connection
        self.loop = loop
        self.idleTimeoutMs = idleTimeoutMs
        self.initial = initial
        self.onEnd = onEnd
    }

    deinit { if let session { nghttp2_session_del(session) } }

    /// The listener's handler, which its loop holds.
    var handler: HTTPRequestHandler { loop.handler }

    /// Whether answers wait for the socket to take them.
    var wantsWrite: Bool { outputOffset < output.count }

    /// What the loop polls its socket for: nothing more is read once it is closing (a client
    /// still sending would wake the loop at once, round after round, until the close).
    var pollEvents: Int16 { (closing == nil ? Int16(POLLIN) : 0) | (wantsWrite ? Int16(POLLOUT) : 0) }

    /// Opens the session (SETTINGS queued) and takes the bytes read before it.
    func start(now: UInt64) {
        lastActivity = now
        guard makeSession() else { return end() }
        // A client's HEADERS and DATA are often two TLS records in one segment: one read(2) for both.
        stream.readAhead()
        let bytes = initial
        initial = []
        if !bytes.isEmpty, !bytes.withUnsafeBufferPointer({ receive($0.baseAddress, $0.count) }) { close(now: now) }
    }

    /// Reads what the socket holds, records read ahead included, until it would wait or
    /// `share` bytes were read; true when it stopped at `share` with more perhaps left.
    func readAvailable(into buffer: inout [UInt8], share: Int) -> Bool {
        guard closing == nil else { return false }
        var taken = 0
        while true {
            let progress = buffer.withUnsafeMutableBytes { stream.read($0) }
            switch progress {
            case .done(let n):
                lastActivity = monotonicMilliseconds()
                guard buffer.withUnsafeBufferPointer({ receive($0.baseAddress, n) }) else {
                    close(now: lastActivity)
                    return false
                }
                taken += n
                if !stream.mayHaveMore && n < buffer.count { return false }
                if taken >= share { return true }
            case .wantRead, .wantWrite: return false
            case .closed, .failed:
                end()
                return false
            }
        }
    }

    /// Sends what is queued and ends the connection when its life is over: closed by chaos, a
    /// protocol error written out, or idle or going away with nothing left in flight.
    func settle(now: UInt64) {
        guard !ended else { return }
        if loop.stopping && !goingAway {
            goAway(reason: .shutdown, now: now)
            endLongAnswers()
        }
        followChaosSettings()
        if let fault = endedByChaos, closing == nil {
            if fault == .reset { return end() }
            closing = now + 1000
        }
        guard flushOutput() else { return end() }
        if let closing {
            if !wantsWrite || now >= closing { end() }
            return
        }
        let idle = nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
        if (idle || goingAway) && pending == 0 && !wantsWrite { end() }
    }

    /// Ends what outlived its time (a close not written, a GOAWAY whose streams never finish)
    /// and says goodbye to an idle connection; gives when to look again.
    func checkTimers(now: UInt64) -> UInt64 {
        guard !ended else { return .max }
        if let deadline = closing ?? lastChance {
            if now >= deadline { end() }
            return deadline
        }
        let idleClose = handler.chaosRules?.idleClose
        let deadline = lastActivity + UInt64(min(idleTimeoutMs, idleClose?.milliseconds ?? Int.max))
        guard now >= deadline else { return deadline }
        if pending == 0 && !streams.values.contains(where: \.isLong) {
            if let idleClose, idleClose.reset, idleClose.milliseconds < idleTimeoutMs {
                // Chaos: an idle connection reset, as APNs' are after hours, without GOAWAY.
                endedByChaos = .reset
            } else {
                goAway(reason: .idleTimeout, now: now)
            }
            loop.touch(self)
        }
        return now + 1000
    }

    /// Ends the connection now: answers waiting hear it is gone, the socket closes.
    func end() {
        guard !ended else { return }
        ended = true
        endLongAnswers()
        resetIfAsked()
        onEnd(endedByChaos == .reset)
    }

    /// A streamed answer on stream `id` has more to send.
    func resumeData(_ id: Int32) {
        if streams[id] != nil { nghttp2_session_resume_data(session, id) }
    }

    /// Writes what is queued and closes within a second (a GOAWAY saying why is queued).
    private func close(now: UInt64) {
        closing = now + 1000
        loop.touch(self)
    }

    private func makeSession() -> Bool {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return false }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, Self.onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, Self.onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, Self.onData)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, Self.onFrame)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, Self.onStreamClose)
        guard nghttp2_session_server_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0 else { return false }
        // A new connection is told chaos's stream limit at once; a running one when it changes.
        chaosVersion = handler.chaosRules?.version ?? -1
        announcedMaxStreams = handler.chaosRules?.maxStreams ?? Self.maxConcurrentStreams
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: announcedMaxStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(Self.maxHeaderBytes)),
        ]
        return nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count) == 0
    }

    /// Feeds bytes to nghttp2; false when the connection must end (a GOAWAY is queued).
    private func receive(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        if nghttp2_session_mem_recv(session, bytes, count) < 0 {
            // Not HTTP/2 (a bad preface) or a protocol error: say so with GOAWAY, then close.
            nghttp2_session_terminate_session(session, NGHTTP2_PROTOCOL_ERROR.rawValue)
            return false
        }
        return true
    }

    /// Writes the answers queued so far, ahead of the round's reads; `settle` follows as ever (and
    /// ends the connection if the write failed).
    func sendQueued() {
        guard !ended, closing == nil else { return }
        _ = flushOutput()
    }

    /// Moves nghttp2's pending frames into `output` and writes what the socket takes.
    private func flushOutput() -> Bool {
        while true {
            if outputOffset == output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
                while output.count < 64 * 1024 {
                    var data: UnsafePointer<UInt8>?
                    let n = nghttp2_session_mem_send(session, &data)
                    if n < 0 { return false }
                    if n == 0 { break }
                    if let data { output.append(contentsOf: UnsafeBufferPointer(start: data, count: n)) }
                }
                if output.isEmpty { return true }
            }
            let progress = output.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch progress {
            case .done(let n): outputOffset += n
            case .wantWrite, .wantRead: return true
            case .closed, .failed: return false
            }
        }
    }

    /// Ends the streams being written and the answers not given yet (the connection goes).
    private func endLongAnswers() {
        for state in streams.values {
            state.responseStream?.closed()
            state.later?.resolve(APIv1.failure(503, "ServiceUnavailable", "the connection is closing"))
        }
    }

    /// GOAWAY saying `reason`: the streams begun are finished, within three seconds.
    private func goAway(reason: APNsReason, now: UInt64) {
        goingAway = true
        lastChance = now + 3000
        let last = nghttp2_session_get_last_proc_stream_id(session)
        let data = Array("{\"reason\":\"\(reason.rawValue)\"}".utf8)
        nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, NGHTTP2_NO_ERROR.rawValue, data, data.count)
    }

    /// Queues `response` on stream `id` and tells the access log (unless it was `logged`).
    func submit(_ id: Int32, head: RequestHead, response: HTTPResponse, logged: Bool = false) {
        guard let state = streams[id] else { return }
        state.answered = true
        if let later = response.later {
            state.later = later
            later.whenResolved { [loop, self] response in
                loop.post([HTTP2Loop.Answer(connection: self, id: id, head: head, response: response, handled: false)], batchDone: false)
            }
            return
        }
        state.later = nil
        var head = head
        head.bodyBytes = state.received
        if let fault = response.connectionFault {
            if !logged { handler.answered(head, response) }
            inject(fault, on: id)
            return
        }
        state.responseStream = response.stream
        state.response = response.body
        state.responseOffset = 0
        state.afterSent = response.afterSent
        if !logged { handler.answered(head, response) }
        // Every name and value in one buffer grown once: nghttp2 copies them during the call.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(response.headers.reduce(10) { $0 + $1.0.utf8.count + $1.1.utf8.count })
        var spans: [(name: Int, nameLength: Int, value: Int, valueLength: Int, flags: UInt8)] = []
        spans.reserveCapacity(response.headers.count + 1)
        func add(_ name: String, _ value: String) {
            let at = bytes.count
            let name = PushHeaders.lowered(name)
            bytes += name.utf8
            let valueAt = bytes.count
            bytes += value.utf8
            // A value no later answer repeats (an apns-id) stays out of HPACK's table: indexing it
            // costs both ends an insertion and an eviction, and it is never referred to again.
            let once = name == PushHeaders.id || name == APNsEndpoint.uniqueIDHeader
            let flags = once ? NGHTTP2_NV_FLAG_NO_INDEX.rawValue : NGHTTP2_NV_FLAG_NONE.rawValue
            spans.append((at, valueAt - at, valueAt, bytes.count - valueAt, UInt8(flags)))
        }
        add(":status", String(response.status))
        for (name, value) in response.headers { add(name, value) }
        bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let nvs = spans.map {
                nghttp2_nv(name: base + $0.name, value: base + $0.value, namelen: $0.nameLength, valuelen: $0.valueLength, flags: $0.flags)
            }
            if response.body.isEmpty && response.stream == nil {
                nghttp2_submit_response(session, id, nvs, nvs.count, nil)
            } else {
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: Self.readBody)
                nghttp2_submit_response(session, id, nvs, nvs.count, &provider)
            }
        }
    }

    /// A chaos fault instead of an answer on stream `id`.
    private func inject(_ fault: ConnectionFault, on id: Int32) {
        switch fault {
        case .refuseStream:
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), id, NGHTTP2_REFUSED_STREAM.rawValue)
        case .goAway(let code, let debug, let processed):
            // The last stream processed: this one, or the one before it (the client sends it again).
            let last = processed ? id : max(0, id - 2)
            let data = Array(debug.utf8)
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code, data, data.count)
            endedByChaos = fault
        case .reset:
            endedByChaos = fault
        }
    }

    /// Makes the socket's close a TCP RST (SO_LINGER 0) when chaos asked for a reset.
    private func resetIfAsked() {
        guard endedByChaos == .reset else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Announces chaos's `max-streams` (or the usual limit again) when the rules changed.
    private func followChaosSettings() {
        guard let rules = handler.chaosRules, rules.version != chaosVersion else { return }
        chaosVersion = rules.version
        let limit = rules.maxStreams ?? Self.maxConcurrentStreams
        guard limit != announcedMaxStreams else { return }
        announcedMaxStreams = limit
        var settings = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: limit)]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
    }

    /// The request's head is complete: the handler may answer at once (refusals, 413).
    func headersDone(_ id: Int32, _ state: StreamState) {
        // Taken, not copied: the head owns them from here (a copy grew a new buffer for "host").
        var headers = state.headers
        state.headers = []
        if let authority = state.authority, !headers.contains(where: { $0.name == "host" }) { headers.append(("host", authority)) }
        var head = RequestHead(method: state.method, path: state.path, headers: headers, connection: connection)
        head.query = state.query
        state.head = head
        let early = handler.early(head)
        state.maxBody = early.maxBody
        state.handsOverOversize = early.handsOverOversize
        state.authentication = early.authentication
        if let response = early.response { submit(id, head: head, response: response) }
    }

    /// The request is complete: it joins the loop's round.
    func dispatch(_ id: Int32, _ state: StreamState) {
        guard !state.answered, let head = state.head else { return }
        state.answered = true
        var request = HTTPRequest(
            method: head.method, path: head.path, headers: head.headers, body: state.body, arrival: head.arrival(state.authentication))
        request.query = head.query
        if state.received > state.body.count { request.bodyLength = state.received }
        loop.enqueue(HTTP2Loop.Ready(connection: self, id: id, request: request, head: head))
    }
}
