import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0, a real third-party MTProto client, against the built `tg-server` on 127.0.0.1: the handshake
/// (legacy RSA encryption of p_q_inner_data), help.getConfig, help.getNearestDc, ping, an unknown method, and a
/// reconnect with the saved auth key — on each of the four TCP transports.
@Suite(.serialized) struct TelethonInteropTests {
    struct Report: Decodable {
        struct Connection: Decodable {
            let this_dc: Int
            let dc_ports: [Int]
            let nearest_dc: Int
            let pong_ok: Bool
            let unimplemented: [String]?
            let auth_key_id: String

            enum CodingKeys: String, CodingKey { case this_dc, dc_ports, nearest_dc, pong_ok, unimplemented, auth_key_id }

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                this_dc = try c.decode(Int.self, forKey: .this_dc)
                dc_ports = try c.decode([Int].self, forKey: .dc_ports)
                nearest_dc = try c.decode(Int.self, forKey: .nearest_dc)
                pong_ok = try c.decode(Bool.self, forKey: .pong_ok)
                auth_key_id = try c.decode(String.self, forKey: .auth_key_id)
                // [400, "METHOD_NOT_IMPLEMENTED"]: mixed types; keep them as text.
                var items = try? c.nestedUnkeyedContainer(forKey: .unimplemented)
                var values: [String] = []
                while let container = items, !container.isAtEnd {
                    if let number = try? items!.decode(Int.self) { values.append(String(number)) }
                    else if let text = try? items!.decode(String.self) { values.append(text) }
                    else { break }
                }
                unimplemented = values.isEmpty ? nil : values
            }
        }
        let telethon: String
        let first: Connection
        let second: Connection
    }

    @Test func telethonTalksToTheServerOnEveryTransport() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let dc2 = try #require(server.ports[2], "tg-server did not announce its ports")
        let pemFile = try await server.publicKeyFile()
        let script = ProcessSupport.interopScript

        let transports = ["full", "abridged", "intermediate", "obfuscated"]
        let dataDirectory = server.dataDirectory
        let outputs = try await withThrowingTaskGroup(of: (String, ProcessRunner.Result).self) { group in
            for transport in transports {
                group.addTask {
                    let session = dataDirectory.appendingPathComponent("telethon-\(transport)").path
                    return (transport, try await ProcessRunner.runOffPool(python, [
                        script.path, "--host", "127.0.0.1", "--port", String(dc2), "--pem-file", pemFile.path,
                        "--transport", transport, "--session", session,
                    ]))
                }
            }
            var all: [String: ProcessRunner.Result] = [:]
            for try await (transport, output) in group { all[transport] = output }
            return all
        }
        var keys: Set<String> = []
        for transport in transports {
            let output = try #require(outputs[transport])
            #expect(output.succeeded, "\(transport): \(output.output) \(output.errorOutput.suffix(2000))")
            guard output.succeeded else { continue }
            let report = try JSONDecoder().decode(Report.self, from: output.stdout)
            #expect(report.telethon == "1.45.0")
            for connection in [report.first, report.second] {
                #expect(connection.this_dc == 2 && connection.nearest_dc == 2, "\(transport)")
                #expect(connection.dc_ports == server.ports.values.sorted(), "\(transport)")
                #expect(connection.pong_ok, "\(transport)")
                #expect(connection.unimplemented == ["400", "METHOD_NOT_IMPLEMENTED"], "\(transport)")
            }
            // The second connection reused the key the first one created.
            #expect(report.first.auth_key_id == report.second.auth_key_id, "\(transport)")
            keys.insert(report.first.auth_key_id)
        }
        #expect(keys.count == transports.count)
        // Every key was used, so each moved from auth-keys/unconfirmed/ to auth-keys/.
        let folder = server.dataDirectory.appendingPathComponent("auth-keys")
        let stored = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "unconfirmed" }
        #expect(stored.count == transports.count)
        // Every key a client went on to use moved up; what stays unconfirmed can only be a key of an exchange Telethon
        // gave up and retried (its 1-in-256 leading-zero case, see mtproto_interop.py), never one in use.
        let unconfirmed = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("unconfirmed").path)
        #expect(Set(unconfirmed).isDisjoint(with: stored))
        #expect(unconfirmed.count <= transports.count)
        #expect(await server.stop() == 0)
    }
}
