import BenchMeasuring
import CallDirectoryHost
import Foundation

/// A CI history of bench summaries across commits, in SQLite (the database calldir already
/// uses for the simulated system's store): one row per commit (its parent, branch, subject,
/// environment fingerprint and place in the history) and one per metric and strategy measured
/// at it (``HistoryFigure``). Raw runs are not kept, so it grows by a few dozen rows a commit;
/// ``prune(keepingLast:)`` bounds it to what a report shows.
public final class BenchHistory {
  /// One commit in the history, oldest first by ``position``.
  public struct Commit: Sendable, Equatable {
    public var sha: String
    public var parent: String
    public var branch: String
    public var subject: String
    /// What the figures were measured on: toolchain, CPU, kernel, allocator, host.
    public var environment: String
    /// The commit's place in the history: 1 for the first added.
    public var position: Int
    /// When it was committed, seconds since 1970 (nil where not recorded): what `calldir
    /// gate --history` fits a budget's growth to.
    public var time: Double? = nil
  }

  /// One metric of one strategy across the history: the commits that measured it, in order.
  public struct Series: Sendable {
    public var metric: String
    public var strategy: String
    public var isDeterministic: Bool
    public var points: [(commit: Commit, figure: HistoryFigure)]
  }

  private let database: SQLiteDatabase
  /// The database file.
  public let path: String

  /// Opens (creating) the history at `path`.
  /// - Throws: ``/BenchMeasuring/BenchError`` naming the file and SQLite's message.
  public init(path: String) throws(BenchError) {
    self.path = path
    do {
      database = try SQLiteDatabase(path: path)
      try database.execute(
        """
        PRAGMA foreign_keys = ON;
        CREATE TABLE IF NOT EXISTS commits(
          sha TEXT PRIMARY KEY, parent TEXT NOT NULL, branch TEXT NOT NULL,
          subject TEXT NOT NULL, environment TEXT NOT NULL, position INTEGER NOT NULL UNIQUE);
        CREATE TABLE IF NOT EXISTS figures(
          sha TEXT NOT NULL REFERENCES commits(sha) ON DELETE CASCADE,
          metric TEXT NOT NULL, strategy TEXT NOT NULL, median REAL NOT NULL, low REAL NOT NULL,
          high REAL NOT NULL, runs INTEGER NOT NULL, deterministic INTEGER NOT NULL,
          PRIMARY KEY (sha, metric, strategy));
        """)
      // The commit time came later: a history written before it gains the column, empty.
      if try database.integer(
        "SELECT COUNT(*) FROM pragma_table_info('commits') WHERE name = 'time'")
        == 0
      {
        try database.execute("ALTER TABLE commits ADD COLUMN time REAL")
      }
    } catch {
      throw BenchError("\(path): not a bench history (\(error))")
    }
  }

  /// Records a commit's figures. A commit already in the history keeps its place and has its
  /// figures replaced (a rerun); a new one goes after every other.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the database cannot be written; it is then as it was.
  public func add(
    sha: String, parent: String, branch: String, subject: String, environment: String,
    time: Double? = nil, figures: [HistoryFigure]
  ) throws(BenchError) {
    do {
      try database.execute("BEGIN IMMEDIATE")
      do {
        let next = (try database.integer("SELECT COALESCE(MAX(position), 0) + 1 FROM commits")) ?? 1
        let position =
          try existingPosition(of: sha) ?? Int(next)
        let commit = try database.prepare(
          "INSERT OR REPLACE INTO commits(sha, parent, branch, subject, environment, position, time) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        )
        commit.bind(sha, at: 1)
        commit.bind(parent, at: 2)
        commit.bind(branch, at: 3)
        commit.bind(subject, at: 4)
        commit.bind(environment, at: 5)
        commit.bind(Int64(position), at: 6)
        // Left unbound, ?7 is NULL: a commit of no known time.
        if let time { commit.bind(double: time, at: 7) }
        try commit.run()
        let clear = try database.prepare("DELETE FROM figures WHERE sha = ?1")
        clear.bind(sha, at: 1)
        try clear.run()
        let insert = try database.prepare(
          "INSERT INTO figures VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        for figure in figures {
          insert.bind(sha, at: 1)
          insert.bind(figure.metric, at: 2)
          insert.bind(figure.strategy, at: 3)
          insert.bind(double: figure.median, at: 4)
          insert.bind(double: figure.low, at: 5)
          insert.bind(double: figure.high, at: 6)
          insert.bind(Int64(figure.runs), at: 7)
          insert.bind(figure.isDeterministic ? 1 : 0, at: 8)
          try insert.run()
        }
        try database.execute("COMMIT")
      } catch {
        try? database.execute("ROLLBACK")
        throw error
      }
    } catch {
      throw BenchError("\(path): cannot record \(sha): \(error)")
    }
  }

  private func existingPosition(of sha: String) throws -> Int? {
    let query = try database.prepare("SELECT position FROM commits WHERE sha = ?1")
    query.bind(sha, at: 1)
    return try query.step() ? Int(query.int64(at: 0)) : nil
  }

  /// Every commit, oldest first.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the database cannot be read.
  public func commits() throws(BenchError) -> [Commit] {
    do {
      let query = try database.prepare(
        "SELECT sha, parent, branch, subject, environment, position, time FROM commits ORDER BY position"
      )
      var commits: [Commit] = []
      while try query.step() {
        commits.append(
          Commit(
            sha: query.text(at: 0) ?? "", parent: query.text(at: 1) ?? "",
            branch: query.text(at: 2) ?? "", subject: query.text(at: 3) ?? "",
            environment: query.text(at: 4) ?? "", position: Int(query.int64(at: 5)),
            time: query.isNull(at: 6) ? nil : query.double(at: 6)))
      }
      return commits
    } catch {
      throw BenchError("\(path): cannot read the commits: \(error)")
    }
  }

  /// Every metric and strategy's series, in a stable order (metric, then strategy).
  /// - Throws: ``/BenchMeasuring/BenchError`` when the database cannot be read.
  public func series() throws(BenchError) -> [Series] {
    let commits = try commits()
    let bySHA = Dictionary(commits.map { ($0.sha, $0) }, uniquingKeysWith: { first, _ in first })
    do {
      let query = try database.prepare(
        """
        SELECT f.sha, metric, strategy, median, low, high, runs, deterministic FROM figures f
        JOIN commits c ON c.sha = f.sha ORDER BY metric, strategy, c.position
        """)
      var all: [Series] = []
      while try query.step() {
        guard let sha = query.text(at: 0), let commit = bySHA[sha] else { continue }
        let figure = HistoryFigure(
          metric: query.text(at: 1) ?? "", strategy: query.text(at: 2) ?? "",
          median: query.double(at: 3), low: query.double(at: 4), high: query.double(at: 5),
          runs: Int(query.int64(at: 6)), isDeterministic: query.int64(at: 7) != 0)
        if let last = all.last, last.metric == figure.metric, last.strategy == figure.strategy {
          all[all.count - 1].points.append((commit, figure))
        } else {
          all.append(
            Series(
              metric: figure.metric, strategy: figure.strategy,
              isDeterministic: figure.isDeterministic, points: [(commit, figure)]))
        }
      }
      return all
    } catch {
      throw BenchError("\(path): cannot read the figures: \(error)")
    }
  }

  /// Keeps only the last `count` commits (and their figures), then compacts the file. The
  /// write is always attempted, so a database that cannot be written is an error even when
  /// nothing is removed (it said "removed 0" on a read-only one).
  /// - Returns: the commits removed.
  /// - Throws: ``/BenchMeasuring/BenchError`` when the database cannot be written; it is then as it was.
  @discardableResult
  public func prune(keepingLast count: Int) throws(BenchError) -> Int {
    do {
      try database.execute("BEGIN IMMEDIATE")
      let total: Int
      do {
        total = Int(try database.integer("SELECT COUNT(*) FROM commits") ?? 0)
        let cutoff = try database.prepare(
          "DELETE FROM commits WHERE position <= (SELECT MAX(position) FROM commits) - ?1")
        cutoff.bind(Int64(count), at: 1)
        try cutoff.run()
        try database.execute("COMMIT")
      } catch {
        try? database.execute("ROLLBACK")
        throw error
      }
      try database.execute("VACUUM")
      return max(0, total - count)
    } catch {
      throw BenchError("\(path): cannot prune: \(error)")
    }
  }
}
