import Foundation
public import TelegramCore

/// Reads a phone book file for `tg contacts import`: vCard 3.0 / 4.0 (RFC 2426, RFC 6350: `BEGIN:VCARD`, `N`, `FN`,
/// `TEL`, folded lines) or CSV (RFC 4180) with a header naming `name` and `phone` columns. A file is read whole and
/// either every contact in it is good or nothing is returned: the first problem is reported with its line.
public enum ContactFile {
    /// The largest file read.
    public static let byteLimit = 4 << 20
    /// The most contacts one file may hold.
    public static let contactLimit = 5_000

    /// The contacts in the file at `path`, chosen by its extension (`.vcf`/`.vcard`, `.csv`).
    public static func read(_ path: String) throws(ClientError) -> [PhoneContact] {
        let url = URL(fileURLWithPath: path)
        let kind = url.pathExtension.lowercased()
        guard ["vcf", "vcard", "csv"].contains(kind) else {
            throw .badInput("\(path): not a .vcf or .csv file — give a vCard (.vcf) or a CSV with a name,phone header")
        }
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            guard size <= byteLimit else { throw ClientError.badInput("\(path): larger than \(byteLimit >> 20) MiB") }
            data = try Data(contentsOf: url)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .badInput("\(path): cannot be read (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .badInput("\(path): not UTF-8 text") }
        let contacts = try kind == "csv" ? csv(text, name: path) : vCard(text, name: path)
        guard !contacts.isEmpty else { throw .badInput("\(path): no contacts with a phone number in it") }
        guard contacts.count <= contactLimit else {
            throw .badInput("\(path): \(contacts.count) contacts; at most \(contactLimit) are imported from one file")
        }
        return contacts
    }

    /// The contacts of vCard text: one per `TEL` of each card, named by `N` (family;given;…) or else by `FN`.
    public static func vCard(_ text: String, name: String = "vCard") throws(ClientError) -> [PhoneContact] {
        var contacts: [PhoneContact] = []
        var card: (line: Int, given: String, family: String, full: String, phones: [String])?
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (number, line) in unfolded(text) {
            guard let colon = line.firstIndex(of: ":") else {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                throw .badInput("\(name):\(number): not a vCard line (no ':'): \(line.prefix(60))")
            }
            let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
            let property = (head.first.map(String.init) ?? "").split(separator: ".").last.map { $0.uppercased() } ?? ""
            let value = String(line[line.index(after: colon)...])
            switch property {
            case "BEGIN" where value.uppercased() == "VCARD":
                if let open = card { throw .badInput("\(name):\(open.line): BEGIN:VCARD without END:VCARD") }
                card = (number, "", "", "", [])
            case "END" where value.uppercased() == "VCARD":
                guard let done = card else { throw .badInput("\(name):\(number): END:VCARD without BEGIN:VCARD") }
                var given = done.given
                var family = done.family
                if given.isEmpty && family.isEmpty { (given, family) = split(done.full) }
                if given.isEmpty { (given, family) = (family, "") }
                for phone in done.phones {
                    contacts.append(
                        PhoneContact(phone: phone, firstName: given.isEmpty ? phone : given, lastName: family))
                }
                card = nil
            case "N", "FN", "TEL":
                guard card != nil else {
                    throw .badInput("\(name):\(number): \(property) outside BEGIN:VCARD/END:VCARD")
                }
                if property == "N" {
                    let parts = value.split(separator: ";", omittingEmptySubsequences: false).map {
                        unescape(String($0))
                    }
                    card?.family = parts.first ?? ""
                    card?.given = parts.count > 1 ? parts[1] : ""
                } else if property == "FN" {
                    card?.full = unescape(value)
                } else {
                    var phone = value.trimmingCharacters(in: .whitespaces)
                    if phone.lowercased().hasPrefix("tel:") { phone = String(phone.dropFirst(4)) }
                    if let parameters = phone.firstIndex(of: ";") { phone = String(phone[..<parameters]) }
                    card?.phones.append(try checkedPhone(phone, at: "\(name):\(number)"))
                }
            default:
                guard card != nil || property == "BEGIN" || property == "END" else {
                    throw .badInput("\(name):\(number): \(property) outside BEGIN:VCARD/END:VCARD")
                }
            }
        }
        if let open = card { throw .badInput("\(name):\(open.line): BEGIN:VCARD without END:VCARD") }
        return contacts
    }

    /// The contacts of CSV text whose header names a `name` (or `first_name` and `last_name`) and a `phone` column.
    public static func csv(_ text: String, name: String = "CSV") throws(ClientError) -> [PhoneContact] {
        let rows = try csvRows(text, name: name)
        guard let (headerLine, header) = rows.first else { throw .badInput("\(name): empty file") }
        let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let phoneColumn = columns.firstIndex(of: "phone") else {
            throw .badInput("\(name):\(headerLine): the header has no 'phone' column (expected name,phone)")
        }
        let nameColumn = columns.firstIndex(of: "name")
        let firstColumn = columns.firstIndex(of: "first_name")
        let lastColumn = columns.firstIndex(of: "last_name")
        guard nameColumn != nil || firstColumn != nil else {
            throw .badInput("\(name):\(headerLine): the header has no 'name' column (expected name,phone)")
        }
        var contacts: [PhoneContact] = []
        for (line, fields) in rows.dropFirst() {
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard fields.count == columns.count else {
                throw .badInput("\(name):\(line): \(fields.count) fields, the header has \(columns.count)")
            }
            let phone = try checkedPhone(fields[phoneColumn], at: "\(name):\(line)")
            var (first, last) = nameColumn.map { split(fields[$0]) } ?? ("", "")
            if let firstColumn { first = fields[firstColumn].trimmingCharacters(in: .whitespaces) }
            if let lastColumn { last = fields[lastColumn].trimmingCharacters(in: .whitespaces) }
            contacts.append(PhoneContact(phone: phone, firstName: first.isEmpty ? phone : first, lastName: last))
        }
        return contacts
    }

    /// A phone number as written, checked: digits with `+`, spaces, dashes, dots and parentheses, 4 to 15 digits
    /// (ITU-T E.164 numbers have at most 15).
    static func checkedPhone(_ raw: String, at place: String) throws(ClientError) -> String {
        let phone = raw.trimmingCharacters(in: .whitespaces)
        let allowed = Set("0123456789+-(). ")
        let digits = phone.filter { $0.isASCII && $0.isNumber }
        guard !phone.isEmpty, phone.allSatisfy(allowed.contains), (4...15).contains(digits.count) else {
            throw .badInput("\(place): '\(phone.prefix(40))' is not a phone number")
        }
        return phone
    }

    /// "Ann Lee" → ("Ann", "Lee"): the first word and the rest.
    static func split(_ full: String) -> (String, String) {
        let trimmed = full.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else { return (trimmed, "") }
        return (
            String(trimmed[..<space]), String(trimmed[space...]).trimmingCharacters(in: .whitespaces)
        )
    }

    /// vCard lines with folding undone (RFC 6350 §3.2: a line starting with a space or tab continues the previous),
    /// each with the number of its first physical line.
    static func unfolded(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw)
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += line.dropFirst()
            } else {
                lines.append((index + 1, line))
            }
        }
        return lines
    }

    /// vCard text escapes: `\,` `\;` `\\` `\n`.
    static func unescape(_ value: String) -> String {
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// RFC 4180 records (quoted fields may hold commas, `""` and line breaks), each with its first line's number.
    static func csvRows(_ text: String, name: String) throws(ClientError) -> [(Int, [String])] {
        var rows: [(Int, [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var characters = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
        if characters.first == "\u{FEFF}" { characters.removeFirst() }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if quoted {
                if character == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" { line += 1 }
                    field.append(character)
                }
            } else if character == "\"" && field.isEmpty {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else if character == "\n" {
                fields.append(field)
                rows.append((rowLine, fields))
                fields = []
                field = ""
                line += 1
                rowLine = line
            } else {
                field.append(character)
            }
            index += 1
        }
        if quoted { throw .badInput("\(name):\(rowLine): a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append((rowLine, fields))
        }
        return rows
    }
}
