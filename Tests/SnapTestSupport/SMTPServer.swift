import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server on 127.0.0.1 (Debian's `python3-aiosmtpd`, RFC 5321), started for one test
/// on a port the kernel picks, that stores every message it is given.
///
/// Each delivery becomes `N.eml` (the DATA as received, dot-stuffing undone) and `N.envelope`
/// (the MAIL FROM, then each RCPT TO, one a line) in ``folder``. Call ``stop()`` when done
/// (`deinit` does too).
public final class SMTPServer {
    /// The Python that has aiosmtpd (Debian's /usr/bin/python3, else the first `python3` in PATH).
    public static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/bin/python3"] + path.split(separator: ":").map { "\($0)/python3" }
        return candidates.first { candidate in
            FileManager.default.isExecutableFile(atPath: candidate)
                && (try? run(candidate, ["-c", "import aiosmtpd.smtp"]).status) == 0
        }
    }()

    /// `msmtp` (Debian's sendmail-compatible SMTP client), or nil when it is not installed.
    public static let msmtp: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/bin"]).map { $0 + "/msmtp" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether both the server and msmtp are there.
    public static var isAvailable: Bool { python != nil && msmtp != nil }

    /// Where the messages go.
    public let folder: URL
    /// The port it listens on.
    public let port: Int
    private let process: Process

    /// Starts the server; returns once it listens.
    public init() throws {
        guard let python = Self.python else { throw TmuxError(description: "python3 with aiosmtpd is not installed") }
        folder = TestPaths.temporaryDirectory("lovesnap-smtp")
        let script = folder.appendingPathComponent("server.py")
        let mail = folder.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        let portFile = folder.appendingPathComponent("port")
        try """
        import asyncio, os, sys
        from aiosmtpd.smtp import SMTP

        folder, port_file = sys.argv[1], sys.argv[2]

        class Store:
            async def handle_DATA(self, server, session, envelope):
                n = len([f for f in os.listdir(folder) if f.endswith(".eml")])
                with open(os.path.join(folder, "%d.envelope" % n), "w") as f:
                    f.write("\\n".join([envelope.mail_from] + envelope.rcpt_tos) + "\\n")
                with open(os.path.join(folder, "%d.eml.part" % n), "wb") as f:
                    f.write(envelope.original_content)
                os.rename(os.path.join(folder, "%d.eml.part" % n), os.path.join(folder, "%d.eml" % n))
                return "250 OK stored"

        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(
            loop.create_server(lambda: SMTP(Store(), decode_data=False), "127.0.0.1", 0))
        with open(port_file + ".part", "w") as f:
            f.write(str(server.sockets[0].getsockname()[1]))
        os.rename(port_file + ".part", port_file)
        loop.run_forever()
        """.write(to: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, mail.path, portFile.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var port = 0
        for _ in 0..<500 where port == 0 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let n = Int(text) {
                port = n
            } else {
                if !process.isRunning { break }
                usleep(20_000)
            }
        }
        self.port = port
        guard port > 0 else {
            kill(process.processIdentifier, SIGKILL)
            throw TmuxError(description: "the SMTP server did not start")
        }
    }

    deinit { stop() }

    /// Stops the server (SIGKILL: it inherits the test runner's blocked signals, SIGTERM
    /// included) and removes its folder.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The msmtp command line that delivers to this server: recipients and the envelope sender
    /// from the message's headers (`-t`, `--read-envelope-from`), no TLS or authentication.
    public var msmtpCommand: String {
        "\(Self.msmtp ?? "msmtp") --host=127.0.0.1 --port=\(port) --auth=off --tls=off --read-envelope-from -t"
    }

    /// A message as delivered, with its envelope.
    public struct Delivery {
        /// The bytes of the DATA.
        public let raw: Data
        /// MAIL FROM.
        public let sender: String
        /// RCPT TO, in order.
        public let recipients: [String]
    }

    /// The messages delivered so far, in order.
    public func deliveries() throws -> [Delivery] {
        let mail = folder.appendingPathComponent("mail")
        let names = try FileManager.default.contentsOfDirectory(atPath: mail.path).filter { $0.hasSuffix(".eml") }
        return try (0..<names.count).map { n in
            let envelope = try String(contentsOf: mail.appendingPathComponent("\(n).envelope"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            return Delivery(
                raw: try Data(contentsOf: mail.appendingPathComponent("\(n).eml")), sender: envelope.first ?? "",
                recipients: Array(envelope.dropFirst()))
        }
    }

    /// A delivered message decoded by Python's `email` package (policy.default): an independent
    /// MIME decoder.
    public struct Decoded: Decodable {
        /// The From header, decoded (RFC 2047 words as text).
        public let from: String
        /// The To header, decoded.
        public let to: String
        /// The Subject, decoded.
        public let subject: String
        /// "text/plain".
        public let contentType: String
        /// "utf-8".
        public let charset: String
        /// "quoted-printable" or "base64".
        public let transferEncoding: String
        /// "1.0".
        public let mimeVersion: String
        /// The decoder's complaints (class names), none for a well-formed message.
        public let defects: [String]
        /// The body's decoded octets (base64 of them on the way).
        let bodyBase64: String

        /// The body's decoded octets, exactly (CRLF line ends, as RFC 5322 has them).
        public var body: Data { Data(base64Encoded: bodyBase64) ?? Data() }
    }

    /// Decodes `raw` with Python's email package.
    public static func decode(_ raw: Data) throws -> Decoded {
        let file = TestPaths.temporaryDirectory("lovesnap-mail").appendingPathComponent("message.eml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try raw.write(to: file)
        let program = """
            import base64, email, email.policy, json, sys
            raw = open(sys.argv[1], "rb").read()
            m = email.message_from_bytes(raw, policy=email.policy.default)
            print(json.dumps({
                "from": str(m["From"]), "to": str(m["To"]), "subject": str(m["Subject"]),
                "contentType": m.get_content_type(), "charset": m.get_content_charset() or "",
                "transferEncoding": str(m["Content-Transfer-Encoding"]), "mimeVersion": str(m["MIME-Version"]),
                "defects": [type(d).__name__ for d in m.defects],
                "bodyBase64": base64.b64encode(m.get_payload(decode=True)).decode()}))
            """
        let r = try run(python ?? "/usr/bin/python3", ["-c", program, file.path])
        guard r.status == 0 else { throw TmuxError(description: "python3 could not decode the message: \(r.stderr)") }
        return try JSONDecoder().decode(Decoded.self, from: Data(r.stdout.utf8))
    }
}
