import PushboxInbox
import PushboxTestSupport
import Testing

@Suite("Where the bundled samples are found")
struct ResourceLocatorTests {
    @Test("the sample folder is found from the working directory and from PUSHBOX_SAMPLES")
    func locator() {
        #expect(ResourceLocator.samplesDirectory(environment: ["PUSHBOX_SAMPLES": "/x"]) == "/x")
        #expect(ResourceLocator.samplesDirectory(environment: [:]) != nil)
    }

    @Test("the sample payloads are the top folder's payload files, the sample app beside them")
    func samples() {
        #expect(ResourceLocator.samplePayloadFiles(in: ProjectPaths.samples).count >= 10)
        #expect(ResourceLocator.sampleAppDirectory(environment: ["PUSHBOX_SAMPLES": "/x"]) == "/x/SampleApp")
    }
}
