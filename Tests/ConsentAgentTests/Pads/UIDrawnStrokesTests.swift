import AgentProtocol
import ConsentCore
import Foundation
import Testing

@testable import ConsentAgent

/// `UIDrawnStrokes` reads `signature.submit`'s strokes from the wire value in place: it must accept and refuse
/// exactly what `SignatureStrokes`' `Decodable` does with the same JSON, which read them before.
@Suite struct UIDrawnStrokesTests {
    func decodedBothWays(_ json: String) throws -> (inPlace: SignatureStrokes?, codable: SignatureStrokes?) {
        let raw = try RPCValue.parse(Array(json.utf8))
        guard case .object(let members) = raw else { return (nil, try? raw.decode(SignatureStrokes.self)) }
        return (UIDrawnStrokes.strokes(from: members), try? raw.decode(SignatureStrokes.self))
    }

    @Test(arguments: [
        #"{"strokes":[[[0.1,0.2,0,0.5],[0.2,0.3,16,0.6]]],"widthMM":120,"heightMM":40}"#,
        #"{"strokes":[[[0,1,0],[1,0,5]]]}"#,
        #"{"strokes":[[[0.5,0.5,0,null]],[[0.25,0.75,1e2,1]]],"widthMM":null}"#,
        #"{"strokes":[],"heightMM":12.5}"#,
        #"{"strokes":[[]]}"#,
        #"{"strokes":[[[1e-300,9007199254740993,-0,0]]],"widthMM":-4}"#,
        #"{"strokes":[[[0.1,0.2,3,0.5]]],"widthMM":1e308,"heightMM":5e-324}"#,
    ])
    func acceptsWhatDecodableAccepts(json: String) throws {
        let (inPlace, codable) = try decodedBothWays(json)
        #expect(inPlace != nil)
        #expect(inPlace == codable)
    }

    @Test(arguments: [
        #"{}"#,
        #"{"strokes":null}"#,
        #"{"strokes":{}}"#,
        #"{"strokes":[[0.1,0.2,0]]}"#,
        #"{"strokes":[[[0.1,0.2]]]}"#,
        #"{"strokes":[[[0.1,0.2,0,0.5,1]]]}"#,
        #"{"strokes":[[["0.1",0.2,0]]]}"#,
        #"{"strokes":[[[0.1,true,0]]]}"#,
        #"{"strokes":[[[0.1,0.2,null]]]}"#,
        #"{"strokes":[[[0.1,0.2,0,"0.5"]]]}"#,
        #"{"strokes":[[[0.1,0.2,0,[]]]]}"#,
        #"{"strokes":[[{"x":0.1,"y":0.2,"t":0}]]}"#,
        #"{"strokes":[],"widthMM":"120"}"#,
        #"{"strokes":[],"heightMM":false}"#,
        #"{"strokes":[],"heightMM":[40]}"#,
    ])
    func refusesWhatDecodableRefuses(json: String) throws {
        let (inPlace, codable) = try decodedBothWays(json)
        #expect(inPlace == nil)
        #expect(codable == nil)
    }
}
