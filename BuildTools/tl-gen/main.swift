import Foundation
import TLGenerator
import TLSchema

/// tl-gen: reads a TL schema and writes the generated Swift files into a module folder.
///
///     tl-gen <schema.tl> <output-folder> <Root> [--check]
///
/// Stale `GENERATED-<Root>*` files in the folder are removed. With `--check` nothing is written; the exit status
/// is 1 when the folder differs from what would be generated.
let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: tl-gen <schema.tl> <output-folder> <Root> [--check]\n".utf8))
    exit(2)
}
let schemaPath = arguments[1]
let output = URL(fileURLWithPath: arguments[2])
let root = arguments[3]
let check = arguments.dropFirst(4).contains("--check")
do {
    let text = try String(contentsOfFile: schemaPath, encoding: .utf8)
    let schema = try TLSchema(parsing: text)
    let sourceName = "Schemas/tl/" + URL(fileURLWithPath: schemaPath).lastPathComponent
    let files = try TLSwiftGenerator(schema: schema, options: .standard(root: root, sourceName: sourceName)).generate()
    let differences = try GeneratedFolder(url: output, root: root).sync(files, write: !check)
    if check {
        for line in differences { print("tl-gen: \(line)") }
        exit(differences.isEmpty ? 0 : 1)
    }
    print(
        "tl-gen: \(files.count) files for \(root) (\(schema.constructors.count) constructors, "
            + "\(schema.functions.count) functions) in \(output.path)")
} catch {
    FileHandle.standardError.write(Data("tl-gen: \(schemaPath): \(error)\n".utf8))
    exit(1)
}
