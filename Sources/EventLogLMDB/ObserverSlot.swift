import EventLog
import Synchronization

/// The commit observer, set once and read by the writer thread before each transaction.
final class ObserverSlot: Sendable {
    private let observer = Mutex<(any LogCommitObserver)?>(nil)

    func attach(_ new: any LogCommitObserver) throws(EventStoreError) {
        let attached = observer.withLock { current -> Bool in
            guard current == nil else { return false }
            current = new
            return true
        }
        if !attached { throw .storage("a commit observer is already attached to this log") }
    }

    var current: (any LogCommitObserver)? { observer.withLock { $0 } }
}
