// The idle-RSS floor of `make bench` (Benchmarks/run compiles it with swiftc -O): a Swift program that links
// Foundation, uses it once, and waits. Its resident memory is what Foundation costs a process before any code of
// its own runs; consentd links Foundation too.
import Foundation

_ = try? JSONSerialization.data(withJSONObject: ["started": Date().timeIntervalSince1970])
while true { sleep(3600) }
