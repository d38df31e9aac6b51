import Glibc

/// CPU seconds this process has used so far, user and system, all threads (`getrusage(RUSAGE_SELF)`): the
/// difference across a measured stretch is the CPU that work cost, whatever the load on the machine.
public func processCPUSeconds() -> Double {
    var usage = rusage()
    guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
