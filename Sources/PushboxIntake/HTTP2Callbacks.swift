import CNGHTTP2
import Foundation
import PushboxPayload

/// nghttp2's callbacks for an `HTTP2Connection`: a request's headers, body and end, a stream's
/// close, and the bytes of an answer's body. They run inside mem_recv/mem_send on the loop's thread.
extension HTTP2Connection {
    private static func me(_ user: UnsafeMutableRawPointer?) -> HTTP2Connection {
        Unmanaged<HTTP2Connection>.fromOpaque(user!).takeUnretainedValue()
    }

    static let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, user in
        guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
        me(user).streams[frame.pointee.hd.stream_id] = StreamState()
        return 0
    }

    static let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, user in
        guard let frame, let state = me(user).streams[frame.pointee.hd.stream_id], let name, let value else { return 0 }
        state.headerBytes += nameLength + valueLength + 32
        if state.headerBytes > maxHeaderBytes { return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue }
        let nameBytes = UnsafeBufferPointer(start: name, count: nameLength)
        let v = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
        // A pseudo-header is told by its bytes: no String made of its name, no string switch.
        switch PseudoHeader(nameBytes) {
        case .method: state.method = v
        case .path:
            // Split at the first "?" by bytes (a split by Character walks graphemes: 2 µs a request).
            if let mark = v.utf8.firstIndex(of: UInt8(ascii: "?")) {
                state.path = String(v[..<mark])
                state.query = FormBody.parse(Array(v.utf8[v.utf8.index(after: mark)...]))
            } else {
                state.path = v
            }
        case .authority: state.authority = v
        case .scheme: break
        case .other, nil:
            // Room for a push's usual headers at once (authorization, apns-*, content-*), and
            // the host that `headersDone` adds from :authority.
            if state.headers.capacity == 0 { state.headers.reserveCapacity(12) }
            state.headers.append((commonName(nameBytes) ?? String(decoding: nameBytes, as: UTF8.self), v))
        }
        return 0
    }

    /// The request pseudo-headers of RFC 9113 §8.3.1, read from a header name's bytes; nil for
    /// a regular header; `other` for another pseudo-header (kept with the headers, as before).
    enum PseudoHeader {
        case method, path, authority, scheme, other

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            guard name.first == UInt8(ascii: ":") else { return nil }
            switch name.count {
            case 5 where Self.equal(name, ":path"): self = .path
            case 7 where Self.equal(name, ":method"): self = .method
            case 7 where Self.equal(name, ":scheme"): self = .scheme
            case 10 where Self.equal(name, ":authority"): self = .authority
            default: self = .other
            }
        }

        fileprivate static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
        }
    }

    /// The names push clients send on every request, as strings made once: a name off the wire
    /// is one of them nearly always, and comparing its bytes costs less than making a string
    /// of them (validated, and allocated past 15 bytes). Nil for another name.
    static func commonName(_ name: UnsafeBufferPointer<UInt8>) -> String? {
        let equal = PseudoHeader.equal
        switch name.count {
        case 7 where equal(name, "apns-id"): return "apns-id"
        case 10 where equal(name, "apns-topic"): return "apns-topic"
        case 10 where equal(name, "user-agent"): return "user-agent"
        case 12 where equal(name, "content-type"): return "content-type"
        case 13 where equal(name, "authorization"): return "authorization"
        case 13 where equal(name, "apns-priority"): return "apns-priority"
        case 14 where equal(name, "apns-push-type"): return "apns-push-type"
        case 14 where equal(name, "content-length"): return "content-length"
        case 15 where equal(name, "apns-expiration"): return "apns-expiration"
        case 15 where equal(name, "accept-encoding"): return "accept-encoding"
        case 16 where equal(name, "apns-collapse-id"): return "apns-collapse-id"
        default: return nil
        }
    }

    static let onData: nghttp2_on_data_chunk_recv_callback = { _, _, id, data, length, user in
        let connection = me(user)
        guard let state = connection.streams[id], !state.answered, let data else { return 0 }
        state.received += length
        let take = min(length, state.maxBody - state.body.count)
        if take > 0 { state.body.append(contentsOf: UnsafeBufferPointer(start: data, count: take)) }
        guard state.received > state.maxBody, let head = state.head else { return 0 }
        if !state.handsOverOversize {
            connection.submit(id, head: head, response: connection.handler.tooLarge(head))
        } else if state.received > EarlyAnswer.drainLimit {
            // Not worth reading further: handled with what was kept and counted.
            connection.dispatch(id, state)
        }
        return 0
    }

    static let onFrame: nghttp2_on_frame_recv_callback = { _, frame, user in
        guard let frame else { return 0 }
        let connection = me(user)
        let id = frame.pointee.hd.stream_id
        guard let state = connection.streams[id] else { return 0 }
        let type = frame.pointee.hd.type
        if type == UInt8(NGHTTP2_HEADERS.rawValue), state.head == nil { connection.headersDone(id, state) }
        if type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue),
            frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        {
            connection.dispatch(id, state)
        }
        return 0
    }

    static let onStreamClose: nghttp2_on_stream_close_callback = { _, id, _, user in
        me(user).streams[id]?.responseStream?.closed()
        me(user).streams[id]?.afterSent?()
        me(user).streams[id] = nil
        return 0
    }

    static let readBody: nghttp2_data_source_read_callback = { _, id, buffer, length, flags, _, user in
        guard let state = me(user).streams[id], let buffer, let flags else {
            flags?.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
            return 0
        }
        if let stream = state.responseStream {
            let connection = me(user)
            let read = stream.read(
                into: UnsafeMutableRawBufferPointer(start: buffer, count: length), park: {},
                wake: { [loop = connection.loop] in loop.resume(connection, id) })
            switch read {
            case .bytes(let n): return n
            case .parked: return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            case .end:
                flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
                return 0
            }
        }
        let n = min(length, state.response.count - state.responseOffset)
        state.response.withUnsafeBytes { raw in
            guard n > 0, let base = raw.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + state.responseOffset, byteCount: n)
        }
        state.responseOffset += n
        if state.responseOffset == state.response.count { flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
        return n
    }
}
