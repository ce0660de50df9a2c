import Foundation
import Testing

@testable import UploadQueue

/// The receiver key file forms C3 deployments have: a PEM public key, an X.509 certificate as PEM or as DER.
@Suite struct RSAPublicKeyFileTests {
    /// `openssl req -x509 -newkey rsa:2048 -subj /CN=c3pro-test-receiver` (the private key was discarded).
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIDHTCCAgWgAwIBAgIUT4xBRW+Gyz54P8pUM5BANqD+f/kwDQYJKoZIhvcNAQEL
        BQAwHjEcMBoGA1UEAwwTYzNwcm8tdGVzdC1yZWNlaXZlcjAeFw0yNjExMjIxMTQ1
        MzRaFw0zNjExMTkxMTQ1MzRaMB4xHDAaBgNVBAMME2MzcHJvLXRlc3QtcmVjZWl2
        ZXIwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQC1l5xqgEtds41IlnoP
        BR5HBPRhq7rTPkmUHRRx0D58ljSjvsaM90x3Nh2QpqaTisTFu/DkLFrt7ba8jU7p
        ZkWJ89UqTMPOqcXgNKVXovgWFvoFs2qeQzxnmdjmOfzlaQS0qQpFE1tOai7xgUr3
        6UaxTOVan3EzTI498MU78AxIYVczupwqiAAeaH3umvjfb4aokFUk5Mj9WJbbeM6k
        K9SKEzmTt9ft3dAONA3/qbu0LuIcX0pjKrdfupRCnY7Xe1IoAfEOxhRS7F2BhB+e
        8w82udmFnqIKOUkL0xFojrUtNkWdIniFTJy2+7cnW2sEILLfxANRP/BSJAMlmK9N
        JLNvAgMBAAGjUzBRMB0GA1UdDgQWBBR2Or5zcAgrQcTakzm1/lRUuEP00jAfBgNV
        HSMEGDAWgBR2Or5zcAgrQcTakzm1/lRUuEP00jAPBgNVHRMBAf8EBTADAQH/MA0G
        CSqGSIb3DQEBCwUAA4IBAQBbj3iyZ+YB7FVeymOnfelGNAqM1K4/3Bt/0j3qz73C
        rapw/6cteXD3++RmAzRmYjMPUTN94aFed6BVSmsgV2L6XrBOA1mVhoHaarYvdEmt
        kNf16ceVUISm8aia2JAzynmrmQoNf3G65dfeYSgE3xRDD8PMBuR0scsSdKCvUmZA
        XhlQQhyK75AddBogQ2AEfHaex8oXxSanPmQOh7xGllJH3S95eSIVi+Y5mLsDEUPx
        WMQr27UfnMoXffSlE3AJoLoXQQOUq6AuwL3WAPHLqFZDnRABRFsseZCykb5qj16T
        ijPkUHy98fAOuOgrV3HFlTOpIHk5Tefyz+1A8TdwzpSY
        -----END CERTIFICATE-----
        """

    /// `openssl x509 -pubkey -noout` of the certificate above.
    static let publicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtZecaoBLXbONSJZ6DwUe
        RwT0Yau60z5JlB0UcdA+fJY0o77GjPdMdzYdkKamk4rExbvw5Cxa7e22vI1O6WZF
        ifPVKkzDzqnF4DSlV6L4Fhb6BbNqnkM8Z5nY5jn85WkEtKkKRRNbTmou8YFK9+lG
        sUzlWp9xM0yOPfDFO/AMSGFXM7qcKogAHmh97pr432+GqJBVJOTI/ViW23jOpCvU
        ihM5k7fX7d3QDjQN/6m7tC7iHF9KYyq3X7qUQp2O13tSKAHxDsYUUuxdgYQfnvMP
        NrnZhZ6iCjlJC9MRaI61LTZFnSJ4hUyctvu3J1trBCCy38QDUT/wUiQDJZivTSSz
        bwIDAQAB
        -----END PUBLIC KEY-----
        """

    func write(_ data: Data, _ name: String) throws -> String {
        let url = try TestRecord.temporaryDirectory().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    static var certificateDER: Data {
        let body = certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body) ?? Data()
    }

    @Test func allThreeFormsGiveTheSameKey() throws {
        let fromKey = try RSAPublicKeyFile.load(path: write(Data(Self.publicKeyPEM.utf8), "receiver.pem"))
        let fromPEMCertificate = try RSAPublicKeyFile.load(path: write(Data(Self.certificatePEM.utf8), "receiver.crt.pem"))
        let fromDERCertificate = try RSAPublicKeyFile.load(path: write(Self.certificateDER, "receiver.crt"))
        #expect(fromKey.count > 256)
        #expect(fromPEMCertificate == fromKey)
        #expect(fromDERCertificate == fromKey)
    }

    @Test func garbageAndTruncatedFilesAreRefused() throws {
        for data in [Data("hello".utf8), Self.certificateDER.prefix(200), Data(), Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)] {
            #expect(throws: UploadQueueError(.invalidPublicKey, "")) { try RSAPublicKeyFile.load(path: write(data, "bad")) }
        }
        #expect(throws: UploadQueueError(.publicKeyUnreadable, "")) { try RSAPublicKeyFile.load(path: "/nonexistent/receiver.crt") }
    }
}
