import Foundation
import PushboxIntake
import PushboxJSON
import PushboxPayload
import PushboxSystem
import PushboxTLS

/// The TCP port's options, shared by `serve` and the TUI: where it listens, its TLS
/// certificate, and the provider keys whose tokens it verifies.
enum PortOptions {
    /// APNs' alternative port, on loopback.
    static let defaultListen = "127.0.0.1:2197"

    static let options = [
        Options.listen,
        Options.listenAny,
        Options.tlsCert,
        Options.tlsKey,
        Options.providerKey,
        Options.teamID,
        Options.fcmTokens,
        Options.apnsTokens,
        Options.apnsEnvironment,
    ]

    /// Sets the port, its TLS and the provider keys on `options` from the command line and the
    /// app's profile.
    static func apply(_ args: ParsedArguments, profile: AppProfile?, io: CommandIO, to options: inout IntakeServer.Options) throws(UsageError) {
        let listen = args.value(Options.listen) ?? defaultListen
        options.tcpAllowAny = args.flag(Options.listenAny)
        guard listen != "off" else {
            options.tcp = nil
            return
        }
        options.tcp = listen
        options.tls = try tlsContext(args, io: io)
        // What `pushbox exec` relays to: the port, on a Unix socket beside the socket.
        if options.socket { options.portSocketPath = Listeners.portSocketPath(beside: options.socketPath) }
        options.providerKeys = try providerKeys(args, profile: profile)
        let accounts = serviceAccountDirectory(io)
        let (accountKeys, problems) = FCMEndpoint.loadAccountKeys(accounts)
        options.serviceAccountKeys = accountKeys
        options.serviceAccountDirectory = accounts
        for problem in problems { io.err("pushbox: warning: \(problem)") }
    }

    /// `$XDG_DATA_HOME/pushbox/fcm/keys`: public keys of the service accounts `fcm-credentials` made.
    static func serviceAccountDirectory(_ io: CommandIO) -> String {
        XDG.dataHome(io.environment) + "/pushbox/fcm/keys"
    }

    static func tlsContext(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> TLSServerContext {
        switch (args.value(Options.tlsCert), args.value(Options.tlsKey)) {
        case (let cert?, let key?):
            do { return try TLSServerContext(certificateFile: cert, keyFile: key) } catch { throw UsageError(message: "\(error)") }
        case (nil, nil):
            do { return try TLSServerContext(authority: authority(io)) } catch { throw UsageError(message: "the local CA: \(error)") }
        default:
            throw UsageError(message: "--tls-cert and --tls-key go together")
        }
    }

    /// The local CA in `$XDG_DATA_HOME/pushbox/tls`, made on first need.
    static func authority(_ io: CommandIO) throws(TLSError) -> CertificateAuthority {
        try CertificateAuthority(directory: CertificateAuthority.defaultDirectory(dataHome: XDG.dataHome(io.environment)))
    }

    /// `--provider-key` files (key id from `AuthKey_<KEYID>.p8` or `KEYID=FILE`) and the profile's.
    static func providerKeys(_ args: ParsedArguments, profile: AppProfile?) throws(UsageError) -> [RegisteredProviderKey] {
        var keys: [RegisteredProviderKey] = []
        let team = args.value(Options.teamID)
        if let team, team.count != 10 { throw UsageError(message: "--team-id \(team): a team id has 10 characters") }
        for spec in args.all(Options.providerKey) {
            var keyID: String
            var file: String
            if let eq = spec.firstIndex(of: "="), spec[..<eq].count == 10 {
                keyID = String(spec[..<eq])
                file = String(spec[spec.index(after: eq)...])
            } else {
                file = spec
                guard let fromName = ProviderToken.keyID(fromFileName: spec) else {
                    throw UsageError(message: "--provider-key \(spec): name the key id, KEYID=FILE, or keep Apple's file name AuthKey_KEYID.p8")
                }
                keyID = fromName
            }
            do { keys.append(RegisteredProviderKey(keyID: keyID, teamID: team, key: try ES256Key.load(file))) } catch {
                throw UsageError(message: "--provider-key \(spec): \(error)")
            }
        }
        for ref in profile?.providerKeys ?? [] {
            do { keys.append(RegisteredProviderKey(keyID: ref.keyID, teamID: ref.teamID, key: try ES256Key.load(ref.file))) } catch {
                throw UsageError(message: "the app's providerKeys: \(error)")
            }
        }
        return keys
    }

    /// One access-log line: method, path, status, reason, apns-id, protocol, listener. Never a token.
    static func accessLine(_ r: RequestRecord) -> String {
        var line = "\(TerminalText.sanitize(r.method)) \(TerminalText.sanitize(r.path)) \(r.status)"
        if let reason = r.reason { line += " \(reason)" }
        if let cause = r.cause { line += " (\(TerminalText.sanitize(cause)))" }
        if let id = r.apnsID { line += " apns-id \(id)" }
        return line + " \(r.protocolName)\(r.tls && r.protocolName != "h2" ? "+tls" : "") \(r.listener)"
    }
}
