import CLMDB
import Foundation
import Synchronization

/// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`.
///
/// The environment owns the `MDB_env` handle and is the only way to start transactions. It is
/// opened with `MDB_NOTLS`, so read transactions are not tied to threads and can be used from
/// Swift tasks. Reads run concurrently; LMDB runs one write transaction at a time.
///
/// The map grows by itself: a write that runs out of map space is rolled back, the map is
/// enlarged (up to ``EnvironmentOptions/maxMapSize``) and the write closure runs again. Write
/// closures must therefore be safe to run more than once: keep side effects for after `write`
/// returns.
public final class Environment: @unchecked Sendable {
    let handle: OpaquePointer
    /// The directory the environment lives in.
    public let path: String
    /// The options it was opened with.
    public let options: EnvironmentOptions
    let gate = TransactionGate()
    private let identity: OpenEnvironmentRegistry.FileIdentity
    private let closed = Atomic<Bool>(false)
    /// Stale reader slots (of processes that died) cleared when the environment was opened.
    public let staleReadersCleared: Int

    /// Opens (creating if needed, unless read-only) the environment in directory `path`.
    public init(path: String, options: EnvironmentOptions = .init()) throws {
        if !options.readOnly {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            Self.narrowModes(in: path, to: options.fileMode)
        }
        let identity = try OpenEnvironmentRegistry.identity(ofDirectory: path)
        try OpenEnvironmentRegistry.register(identity, path: path)
        var env: OpaquePointer?
        do {
            try check(mdb_env_create(&env), "mdb_env_create")
            guard let env else { throw LMDBError(code: .invalid, message: "no environment handle", operation: "mdb_env_create") }
            do {
                try check(mdb_env_set_mapsize(env, options.initialMapSize), "mdb_env_set_mapsize(\(options.initialMapSize))")
                try check(mdb_env_set_maxdbs(env, options.maxDatabases), "mdb_env_set_maxdbs")
                try check(mdb_env_set_maxreaders(env, options.maxReaders), "mdb_env_set_maxreaders")
                var flags = UInt32(MDB_NOTLS)
                if options.readOnly { flags |= UInt32(MDB_RDONLY) }
                if options.durability == .relaxed { flags |= UInt32(MDB_NOMETASYNC) }
                if options.durability == .noSync { flags |= UInt32(MDB_NOSYNC) }
                try check(mdb_env_open(env, path, flags, options.fileMode), "mdb_env_open(\(path))")
                var dead: Int32 = 0
                try check(mdb_reader_check(env, &dead), "mdb_reader_check")
                self.staleReadersCleared = Int(dead)
            } catch {
                mdb_env_close(env)
                throw error
            }
            self.handle = env
        } catch {
            OpenEnvironmentRegistry.unregister(identity)
            throw error
        }
        self.path = path
        self.options = options
        self.identity = identity
    }

    deinit { close() }

    /// Narrows `data.mdb` and `lock.mdb` of an environment made before files were private (or
    /// copied in with a wider mode) to `mode`. Files of another owner are left alone (chmod fails).
    private static func narrowModes(in path: String, to mode: UInt32) {
        for name in ["data.mdb", "lock.mdb"] {
            let file = (path as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                  let current = (attributes[.posixPermissions] as? NSNumber)?.uint32Value, current & ~mode != 0 else { continue }
            try? FileManager.default.setAttributes([.posixPermissions: Int(current & mode)], ofItemAtPath: file)
        }
    }

    /// Closes the environment. Every transaction must have finished. Safe to call twice.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        gate.exclusively {
            if !options.readOnly { mdb_env_sync(handle, 1) }
            mdb_env_close(handle)
        }
        OpenEnvironmentRegistry.unregister(identity)
    }

    func ensureOpen() throws {
        if closed.load(ordering: .acquiring) { throw LMDBUsageError.environmentClosed(path: path) }
    }

    /// Opens (and, in a writable environment, creates) the named database.
    public func openDatabase(named name: String, create: Bool = true) throws -> Database {
        try ensureOpen()
        let shouldCreate = create && !options.readOnly
        return try gate.enteredWithResizeRetry(self, readOnly: !shouldCreate) { txn in
            var dbi: MDB_dbi = 0
            let flags = shouldCreate ? UInt32(MDB_CREATE) : 0
            try check(mdb_dbi_open(txn, name, flags, &dbi), "mdb_dbi_open(\(name))")
            try check(mdb_txn_commit(txn), "mdb_txn_commit(open \(name))")
            return Database(dbi: dbi, name: name)
        }
    }

    /// Runs `body` in a read-only transaction, which sees a consistent snapshot of the last commit.
    ///
    /// Keep read transactions short: an open reader keeps old pages from being reused.
    public func read<R>(_ body: (ReadTransaction) throws -> R) throws -> R {
        try ensureOpen()
        return try gate.enteredWithResizeRetry(self, readOnly: true) { txn in
            let transaction = ReadTransaction(handle: txn)
            defer {
                transaction.finish()
                mdb_txn_abort(txn)
            }
            return try body(transaction)
        }
    }

    /// Runs `body` in a write transaction and commits it; a throw rolls everything back.
    ///
    /// If the map is full the transaction is rolled back, the map grows, and `body` runs again.
    public func write<R>(_ body: (WriteTransaction) throws -> R) throws -> R {
        try ensureOpen()
        if options.readOnly { throw LMDBUsageError.readOnlyEnvironment(path: path) }
        while true {
            let observedMapSize = mapSize
            let attempt: Result<R, any Error>? = try gate.enteredWithResizeRetry(self, readOnly: false) { txn in
                let transaction = WriteTransaction(handle: txn)
                let result: R
                do {
                    result = try body(transaction)
                } catch {
                    transaction.finish()
                    mdb_txn_abort(txn)
                    if transaction.hitMapFull || (error as? LMDBError)?.code == .mapFull { return nil }
                    return .failure(error)
                }
                transaction.finish()
                let rc = mdb_txn_commit(txn)
                if rc == MDB_MAP_FULL { return nil }
                if rc != 0 { return .failure(LMDBError(code: rc, operation: "mdb_txn_commit")) }
                return .success(result)
            }
            if let attempt { return try attempt.get() }
            try grow(from: observedMapSize)
        }
    }

    /// The current map size in bytes.
    public var mapSize: Int { info().mapSize }

    /// Sizes and counters of the environment, from `mdb_env_info` and `mdb_env_stat`.
    public func info() -> EnvironmentInfo {
        var envInfo = MDB_envinfo()
        mdb_env_info(handle, &envInfo)
        var stat = MDB_stat()
        mdb_env_stat(handle, &stat)
        return EnvironmentInfo(
            mapSize: envInfo.me_mapsize,
            pageSize: Int(stat.ms_psize),
            lastPageNumber: envInfo.me_last_pgno,
            lastTransactionID: envInfo.me_last_txnid,
            maxReaders: Int(envInfo.me_maxreaders),
            readersInUse: Int(envInfo.me_numreaders)
        )
    }

    /// Tells the kernel this process is done with the map's pages for now (`madvise`
    /// `MADV_DONTNEED` on the read-only shared mapping). They stay in the page cache and come back
    /// on the next access; the process's resident size stops counting them. Long scans (rebuilds)
    /// call it between chunks so their resident memory stays bounded by a chunk, not the file.
    public func releaseResidentPages() {
        guard !closed.load(ordering: .acquiring) else { return }
        #if os(Linux)
        // LMDB does not tell where it mapped the file (unless MDB_FIXEDMAP): find it in
        // /proc/self/maps by the data file's path.
        let file = URL(fileURLWithPath: path).appendingPathComponent("data.mdb").resolvingSymlinksInPath().path
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + file) {
            let range = line.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                  let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            _ = madvise(address, Int(end - start), MADV_DONTNEED)
        }
        #endif
    }

    /// Flushes data to disk; needed only with relaxed durability.
    public func sync(force: Bool = true) throws {
        try ensureOpen()
        try check(mdb_env_sync(handle, force ? 1 : 0), "mdb_env_sync")
    }

    /// Enlarges the map (doubling, capped at the configured limit) unless someone already did.
    private func grow(from observed: Int) throws {
        try gate.exclusively {
            let current = info().mapSize
            guard current <= observed else { return }
            guard current < options.maxMapSize else {
                throw LMDBError(
                    code: .mapFull,
                    message: String(cString: mdb_strerror(MDB_MAP_FULL))
                        + " — the map reached its configured limit of \(options.maxMapSize) bytes",
                    operation: "grow map")
            }
            let step = 1 << 20
            let doubled = max(current * 2, current + step)
            let target = min(options.maxMapSize, (doubled + step - 1) / step * step)
            try check(mdb_env_set_mapsize(handle, target), "mdb_env_set_mapsize(\(target))")
        }
    }

    /// Adopts a map size another process set (`MDB_MAP_RESIZED`).
    func adoptResizedMap() throws {
        try gate.exclusively {
            try check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize(0)")
        }
    }
}

extension TransactionGate {
    /// Begins a transaction inside the gate, adopting a map another process grew, and runs `body`
    /// with it. `body` must commit or abort the transaction.
    func enteredWithResizeRetry<R>(
        _ environment: Environment, readOnly: Bool, _ body: (OpaquePointer) throws -> R
    ) throws -> R {
        while true {
            enter()
            var txn: OpaquePointer?
            let rc = mdb_txn_begin(environment.handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
            if rc == MDB_MAP_RESIZED {
                leave()
                try environment.adoptResizedMap()
                continue
            }
            defer { leave() }
            try check(rc, readOnly ? "mdb_txn_begin(read-only)" : "mdb_txn_begin(write)")
            guard let txn else { throw LMDBError(code: .badTransaction, message: "no transaction handle", operation: "mdb_txn_begin") }
            return try body(txn)
        }
    }
}

/// A snapshot of an environment's sizes and counters.
public struct EnvironmentInfo: Sendable, Hashable {
    public let mapSize: Int
    public let pageSize: Int
    public let lastPageNumber: Int
    public let lastTransactionID: Int
    public let maxReaders: Int
    public let readersInUse: Int

    /// Bytes of the map in use: (last page number + 1) × page size.
    public var usedBytes: Int { (lastPageNumber + 1) * pageSize }
}
