import Foundation

/// Points on the Earth as unit vectors in a k-d tree, so the places nearest a point are found
/// nearest first without measuring the whole catalog. Distances in the tree are squared chords
/// of the unit sphere, which grow with the great-circle distance, so the order is the same; the
/// bounds of a tree's boxes are exact (Euclidean), at any latitude, the poles included.
struct SpherePointTree: Sendable {
    /// One branch or leaf: the points `start..<end` (of the reordered arrays) and their box.
    fileprivate struct Node: Sendable {
        var start: Int32
        var end: Int32
        /// The children's node indexes (-1 for a leaf).
        var left: Int32 = -1
        var right: Int32 = -1
        var low = (x: 0.0, y: 0.0, z: 0.0)
        var high = (x: 0.0, y: 0.0, z: 0.0)
    }

    private static let leafSize = 8
    fileprivate var x: [Double] = []
    fileprivate var y: [Double] = []
    fileprivate var z: [Double] = []
    /// What each point stands for (the caller's number), in the tree's order.
    fileprivate var payloads: [Int32] = []
    fileprivate var nodes: [Node] = []

    /// The unit vector of a latitude and longitude in degrees.
    static func vector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }

    /// Metres along the Earth's surface of a squared chord of the unit sphere.
    static func meters(squaredChord: Double) -> Double {
        2 * TrackAnalysis.earthRadius * asin(min(1, max(0, squaredChord).squareRoot() / 2))
    }

    /// A tree of `points` (latitude and longitude in degrees), each with its payload.
    init(_ points: [(latitude: Double, longitude: Double, payload: Int32)]) {
        guard !points.isEmpty else { return }
        x.reserveCapacity(points.count)
        y.reserveCapacity(points.count)
        z.reserveCapacity(points.count)
        for point in points {
            let v = Self.vector(latitude: point.latitude, longitude: point.longitude)
            x.append(v.x)
            y.append(v.y)
            z.append(v.z)
            payloads.append(point.payload)
        }
        nodes.reserveCapacity(2 * points.count / Self.leafSize + 1)
        nodes.append(Node(start: 0, end: Int32(points.count)))
        var pending = [0]
        while let index = pending.popLast() {
            let (start, end) = (Int(nodes[index].start), Int(nodes[index].end))
            var low = (x: Double.infinity, y: Double.infinity, z: Double.infinity)
            var high = (x: -Double.infinity, y: -Double.infinity, z: -Double.infinity)
            for i in start..<end {
                low = (min(low.x, x[i]), min(low.y, y[i]), min(low.z, z[i]))
                high = (max(high.x, x[i]), max(high.y, y[i]), max(high.z, z[i]))
            }
            nodes[index].low = low
            nodes[index].high = high
            guard end - start > Self.leafSize else { continue }
            let spreads = [high.x - low.x, high.y - low.y, high.z - low.z]
            let axis = spreads.indices.max { spreads[$0] < spreads[$1] } ?? 0
            let middle = (start + end) / 2
            select(middle, in: start..<end, axis: axis)
            let left = nodes.count
            nodes.append(Node(start: Int32(start), end: Int32(middle)))
            nodes.append(Node(start: Int32(middle), end: Int32(end)))
            nodes[index].left = Int32(left)
            nodes[index].right = Int32(left + 1)
            pending.append(left)
            pending.append(left + 1)
        }
    }

    var isEmpty: Bool { payloads.isEmpty }

    private func coordinate(_ i: Int, _ axis: Int) -> Double { axis == 0 ? x[i] : axis == 1 ? y[i] : z[i] }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        x.swapAt(i, j)
        y.swapAt(i, j)
        z.swapAt(i, j)
        payloads.swapAt(i, j)
    }

    /// Reorders `range` so the point at `k` is the one a sort along `axis` would put there, with
    /// no greater point before it and no smaller one after (quickselect, median-of-three pivots).
    private mutating func select(_ k: Int, in range: Range<Int>, axis: Int) {
        var low = range.lowerBound, high = range.upperBound - 1
        while high > low {
            let middle = (low + high) / 2
            if coordinate(middle, axis) < coordinate(low, axis) { swapAt(middle, low) }
            if coordinate(high, axis) < coordinate(low, axis) { swapAt(high, low) }
            if coordinate(high, axis) < coordinate(middle, axis) { swapAt(high, middle) }
            let pivot = coordinate(middle, axis)
            var i = low, j = high
            while i <= j {
                while coordinate(i, axis) < pivot { i += 1 }
                while coordinate(j, axis) > pivot { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return }
        }
    }

    fileprivate func squaredDistance(from p: (x: Double, y: Double, z: Double), toBox node: Node) -> Double {
        let dx = max(node.low.x - p.x, 0, p.x - node.high.x)
        let dy = max(node.low.y - p.y, 0, p.y - node.high.y)
        let dz = max(node.low.z - p.z, 0, p.z - node.high.z)
        return dx * dx + dy * dy + dz * dz
    }

    fileprivate func squaredDistance(from p: (x: Double, y: Double, z: Double), toPoint i: Int) -> Double {
        let dx = x[i] - p.x, dy = y[i] - p.y, dz = z[i] - p.z
        return dx * dx + dy * dy + dz * dz
    }
}

/// The points of several trees, nearest a query point first (best-first search: a heap of boxes
/// and points by their squared chord from the point). Each step costs a logarithm of what was
/// visited, so finding the k nearest costs about k steps, not the size of the trees.
struct NearestWalk {
    private struct Item {
        var bound: Double
        var tree: Int32
        /// A node index, or for a point its index in the tree's arrays.
        var index: Int32
        var isPoint: Bool
    }

    private let trees: [SpherePointTree]
    private let point: (x: Double, y: Double, z: Double)
    private var heap: [Item] = []

    init(_ trees: [SpherePointTree], latitude: Double, longitude: Double) {
        self.trees = trees
        point = SpherePointTree.vector(latitude: latitude, longitude: longitude)
        for (t, tree) in trees.enumerated() where !tree.isEmpty {
            push(Item(bound: tree.squaredDistance(from: point, toBox: tree.nodes[0]), tree: Int32(t), index: 0, isPoint: false))
        }
    }

    /// No point still to come is nearer than this squared chord (infinity when none is left).
    var nextBound: Double { heap.first?.bound ?? .infinity }

    /// The next nearest point's payload (its tree's number and the payload) and squared chord.
    mutating func next() -> (tree: Int, payload: Int32, squaredChord: Double)? {
        while let item = pop() {
            let tree = trees[Int(item.tree)]
            if item.isPoint { return (Int(item.tree), tree.payloads[Int(item.index)], item.bound) }
            let node = tree.nodes[Int(item.index)]
            if node.left < 0 {
                for i in Int(node.start)..<Int(node.end) {
                    push(Item(bound: tree.squaredDistance(from: point, toPoint: i), tree: item.tree, index: Int32(i), isPoint: true))
                }
            } else {
                for child in [node.left, node.right] {
                    push(Item(bound: tree.squaredDistance(from: point, toBox: tree.nodes[Int(child)]), tree: item.tree, index: child, isPoint: false))
                }
            }
        }
        return nil
    }

    private mutating func push(_ item: Item) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].bound < heap[parent].bound else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Item? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].bound < heap[smallest].bound { smallest = left }
                if right < heap.count, heap[right].bound < heap[smallest].bound { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
