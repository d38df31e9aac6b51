/// The error `body` throws, or nil: a failing check then prints nil, never a decoded value of hundreds of megabytes
/// (the media limit tests decode hostile files that must be refused).
public func thrownError(_ body: () throws -> some Any) -> (any Error)? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
