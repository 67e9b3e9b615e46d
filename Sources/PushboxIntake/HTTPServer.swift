import CMicroHTTPD
import Foundation

/// One HTTP request as the intake sees it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// Header names lowercased, in order, duplicates kept.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
}

/// The answer to a request.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// What the server asks of the application.
public protocol HTTPRequestHandler: AnyObject, Sendable {
    /// Looks at the request line and headers before any body byte is read: return a response
    /// to answer at once (the body is then never read), or nil plus the most body bytes to accept.
    func early(method: String, path: String, headers: [(name: String, value: String)]) -> (HTTPResponse?, maxBody: Int)
    /// The whole request.
    func handle(_ request: HTTPRequest) -> HTTPResponse
}

/// libmicrohttpd serving a socket that pushbox bound itself: an internal epoll thread pool, idle
/// connections closed, connections and header memory capped. A body longer than the handler
/// allows is answered 413 from its Content-Length without reading it; a body without a length
/// that grows past the limit (+1 byte) gets its connection closed.
public final class HTTPServer: @unchecked Sendable {
    private var daemon: OpaquePointer?
    private let context: Unmanaged<Context>
    private let listenFD: Int32

    /// Counts for tests: body bytes ever handed to the application.
    public var bodyBytesRead: Int { context.takeUnretainedValue().bodyBytes }

    final class Context: @unchecked Sendable {
        let handler: HTTPRequestHandler
        let lock = NSLock()
        var bodyBytesValue = 0
        var bodyBytes: Int {
            lock.lock(); defer { lock.unlock() }
            return bodyBytesValue
        }
        init(handler: HTTPRequestHandler) { self.handler = handler }
        func addBody(_ n: Int) { lock.lock(); bodyBytesValue += n; lock.unlock() }
    }

    /// State of one request across libmicrohttpd's calls.
    final class RequestState {
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var maxBody = 0
        var answered = false
    }

    public init(listenFD: Int32, handler: HTTPRequestHandler, threads: Int = 2, idleTimeout: Int = 30,
                connectionLimit: Int = 256, headerMemory: Int = 32 * 1024) throws(ListenError) {
        self.listenFD = listenFD
        context = Unmanaged.passRetained(Context(handler: handler))
        daemon = pb_mhd_start(listenFD, UInt32(threads), UInt32(idleTimeout), UInt32(connectionLimit), headerMemory,
                              HTTPServer.access, HTTPServer.completed, context.toOpaque())
        guard daemon != nil else {
            context.release()
            throw ListenError(message: "libmicrohttpd could not start on the socket")
        }
    }

    /// Stops serving and closes the listening socket.
    public func stop() {
        guard let d = daemon else { return }
        daemon = nil
        MHD_stop_daemon(d)
        close(listenFD)
        context.release()
    }

    deinit { stop() }

    static func queue(_ connection: OpaquePointer?, _ response: HTTPResponse) -> MHD_Result {
        let r = response.body.withUnsafeBytes { pb_mhd_response($0.baseAddress, $0.count) }
        defer { MHD_destroy_response(r) }
        for (name, value) in response.headers { MHD_add_response_header(r, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), r)
    }

    static let access: pb_mhd_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
        let context = Unmanaged<Context>.fromOpaque(cls!).takeUnretainedValue()
        let method = method.map { String(cString: $0) } ?? "GET"
        let path = url.map { String(cString: $0) } ?? "/"
        guard let slot = requestContext, let size = uploadSize else { return .NO }
        if slot.pointee == nil {
            // First call: request line and headers only, nothing of the body read yet.
            let state = RequestState()
            let box = Unmanaged.passRetained(state)
            slot.pointee = box.toOpaque()
            MHD_get_connection_values(connection, .HEADER_KIND, { statePointer, _, key, value in
                let state = Unmanaged<RequestState>.fromOpaque(statePointer!).takeUnretainedValue()
                state.headers.append(((key.map { String(cString: $0) } ?? "").lowercased(), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, box.toOpaque())
            let (early, maxBody) = context.handler.early(method: method, path: path, headers: state.headers)
            state.maxBody = maxBody
            if let early {
                state.answered = true
                return queue(connection, early)
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(slot.pointee!).takeUnretainedValue()
        if size.pointee > 0 {
            let n = size.pointee
            if state.answered { size.pointee = 0; return .YES }
            let take = min(n, state.maxBody + 1 - state.body.count)
            if take > 0, let data = uploadData {
                data.withMemoryRebound(to: UInt8.self, capacity: take) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: take)) }
                context.addBody(take)
            }
            if state.body.count > state.maxBody {
                // No length was announced and the body outgrew the limit: stop reading, close.
                return .NO
            }
            size.pointee = 0
            return .YES
        }
        if state.answered { return .YES }
        state.answered = true
        let response = context.handler.handle(HTTPRequest(method: method, path: path, headers: state.headers, body: state.body))
        return queue(connection, response)
    }

    static let completed: pb_mhd_completed = { _, _, requestContext, _ in
        guard let slot = requestContext, let pointer = slot.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        slot.pointee = nil
    }
}
