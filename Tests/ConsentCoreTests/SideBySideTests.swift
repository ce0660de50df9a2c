import ConsentCore
import Foundation
import Testing

@Suite struct SideBySideTests {
    struct Failure: Error, Equatable { var index: Int }

    @Test func resultsKeepTheirIndexWhateverFinishesFirst() {
        let results = SideBySide.results(count: 8) { index -> Int in
            usleep(useconds_t((8 - index) * 2_000))  // the last index finishes first
            if index % 3 == 2 { throw Failure(index: index) }
            return index * 10
        }
        #expect(results.count == 8)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let value): #expect(index % 3 != 2 && value == index * 10)
            case .failure(let error): #expect(error as? Failure == Failure(index: index))
            }
        }
        #expect(SideBySide.results(count: 0) { $0 }.isEmpty)
    }

    @Test func bothGivesBothValuesOrTheFirstsErrorBeforeTheSeconds() throws {
        let (a, b) = try SideBySide.both({ "first" }, { 2 })
        #expect(a == "first" && b == 2)
        #expect(throws: Failure(index: 0)) {
            _ = try SideBySide.both({ () throws -> Int in throw Failure(index: 0) }, { () throws -> Int in throw Failure(index: 1) })
        }
        #expect(throws: Failure(index: 1)) { _ = try SideBySide.both({ 1 }, { () throws -> Int in throw Failure(index: 1) }) }
    }
}
