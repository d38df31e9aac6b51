/// Where the client keeps its accounts when no `--root` is given (the XDG Base Directory Specification's data home):
/// `$TG_ROOT`, else `$XDG_DATA_HOME/telegraph`, else `$HOME/.local/share/telegraph`.
public enum ClientRoot {
    /// The default root for `environment` (the process's variables).
    public static func defaultPath(environment: [String: String]) -> String? {
        if let root = environment["TG_ROOT"], !root.isEmpty { return root }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/telegraph" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/telegraph" }
        return nil
    }
}
