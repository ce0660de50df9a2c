import Testing

@testable import ConsentAgent

/// consentd calls this first thing; here it runs in the test process, which stays non-dumpable afterwards (its
/// only effect on a test run: no core dump if the runner crashed later).
@Suite struct ProcessHardeningTests {
    @Test func makesTheProcessNonDumpable() {
        #expect(ProcessHardening.makeNonDumpable())
        #expect(!ProcessHardening.isDumpable)
    }
}
