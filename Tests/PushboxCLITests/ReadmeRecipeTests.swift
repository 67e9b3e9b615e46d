import Foundation
import PushboxIntake
import PushboxJSON
import PushboxTestSupport
import Testing

/// The testing guide's recipes (docs/guide/testing.md) run as written — pytest with httpx, `node --test`, a CI shell job —
/// against `pushbox serve` on the bundled sample app; and the API's OpenAPI document, made from
/// the route table, checked by a real OpenAPI validator.
@Suite("The testing guide's recipes, run as written", .serialized)
struct ReadmeRecipeTests {
    /// The code block under `<!-- recipe: NAME -->` in the testing guide.
    static func recipe(_ name: String) throws -> String {
        let readme = try String(contentsOfFile: ProjectPaths.projectRoot + "/docs/guide/testing.md", encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- recipe: \(name) -->"), "docs/guide/testing.md has no \(name) recipe")
        let after = readme[marker.upperBound...]
        let open = try #require(after.range(of: "```"))
        let body = after[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        let close = try #require(body.range(of: "\n```"))
        return String(body[..<close.lowerBound]) + "\n"
    }

    /// `serve` started, the recipe written as `name` beside it, and the environment that points
    /// the recipe at serve's socket.
    static func served(_ recipe: String, as name: String) throws -> (ProviderLibraryTests.PortServed, String, [String: String]) {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let file = s.dir + "/" + name
        try Self.recipe(recipe).write(toFile: file, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["PUSHBOX_SOCKET"] = s.dir + "/s.sock"
        return (s, file, env)
    }

    static var nodeReady: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/node") }

    @Test(
        "the pytest recipe: two tests pass against serve (Korean rendering; 410 for an uninstalled app)",
        .enabled(if: ProviderLibraryTests.venvReady("pytest"), "needs the pytest venv that make pyclients installs from PyPI"))
    func pytestRecipe() throws {
        let (s, file, env) = try Self.served("pytest", as: "test_invite.py")
        let r = try Subprocess.run(
            ProviderLibraryTests.venvPython("pytest"), ["-m", "pytest", "-q", "-p", "no:cacheprovider", file], environment: env, directory: s.dir,
            timeout: 120)
        #expect(r.status == 0 && r.out.contains("2 passed"), "\(r.out) \(r.err)")
    }

    @Test(
        "the node --test recipe passes against serve (Japanese rendering)", .enabled(if: nodeReady, "needs Debian's nodejs (make test installs it)"))
    func nodeRecipe() throws {
        let (s, file, env) = try Self.served("node", as: "invite.test.mjs")
        let r = try Subprocess.run("/usr/bin/node", ["--test", file], environment: env, directory: s.dir, timeout: 120)
        #expect(r.status == 0 && r.out.contains("# pass 1") && r.out.contains("# fail 0"), "\(r.out) \(r.err)")
    }

    @Test("the CI shell recipe: serve started, health awaited, the push waited for in Korean; exit 0, and 1 when it never comes")
    func shellRecipe() throws {
        let inbox = try ShellInbox()
        let script = try Self.recipe("shell")
        let passed = try inbox.run(script, timeout: 120)
        #expect(passed.status == 0 && passed.out.contains("게임 초대"), "\(passed.out) \(passed.err)")
        // The same job when the push is never sent: the wait fails it.
        let noPush = script.replacingOccurrences(of: "curl -s", with: "true || curl -s")
        let failed = try inbox.run(noPush.replacingOccurrences(of: "--timeout 10", with: "--timeout 1"), timeout: 120)
        #expect(failed.status == 1, "\(failed.out) \(failed.err)")
    }

    @Test(
        "GET /api/v1/openapi.json describes every /api/v1/ route of the table and is a valid OpenAPI 3.1 document",
        .enabled(if: ProviderLibraryTests.venvReady("pytest"), "needs openapi-spec-validator from the pytest venv (make pyclients)"))
    func openAPIDocument() throws {
        let s = try ProviderLibraryTests.PortServed()
        try s.start()
        let r = try Subprocess.run("/usr/bin/curl", ["-s", "--unix-socket", s.dir + "/s.sock", "http://localhost/api/v1/openapi.json"])
        let document = try #require(try JSONParser.parse(Array(r.out.utf8)).objectValue)
        let paths = Set(document["paths"]?.objectValue?.keys ?? [])
        #expect(
            paths == [
                "/api/v1/notifications", "/api/v1/notifications/{key}", "/api/v1/notifications/{key}/attachments/{index}",
                "/api/v1/notifications/{key}/response", "/api/v1/wait",
                "/api/v1/events", "/api/v1/device", "/api/v1/requests", "/api/v1/activities", "/api/v1/chaos",
                "/api/v1/health", "/api/v1/openapi.json",
            ])
        // The reference page (pushbox docs) is made from the same descriptions: none left out.
        #expect(Set(APIReference.routes.map(\.path)) == paths)
        let device = document["paths"]?.objectValue?["/api/v1/device"]?.objectValue
        #expect(Set(device?.keys ?? []) == ["get", "put"], "each method the route takes")
        try r.out.write(toFile: s.dir + "/openapi.json", atomically: true, encoding: .utf8)
        let check = try Subprocess.run(
            ProviderLibraryTests.venvPython("pytest"),
            [
                "-c", "import json,sys; from openapi_spec_validator import validate; validate(json.load(open(sys.argv[1]))); print('valid')",
                s.dir + "/openapi.json",
            ])
        #expect(check.out == "valid\n", "\(check.out) \(check.err)")
    }
}
