@main enum X { static func main() {} }
