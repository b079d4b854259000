/// Graph algorithms over the conformance hierarchy, shared by the compiler and the run-time overlay.
package enum TypeGraph {
    /// Every node's ancestors, depth-first in declaration order, each once.
    ///
    /// - Throws: `.conformanceCycle` for the first cycle met, naming its members in order.
    package static func ancestors(parents: [[Int]], names: [String], sources: [String?]) throws(TypeDeclarationError) -> [[Int]] {
        var result = [[Int]?](repeating: nil, count: parents.count)
        var onPath = [Bool](repeating: false, count: parents.count)
        var path: [Int] = []

        func visit(_ node: Int) throws(TypeDeclarationError) -> [Int] {
            if let done = result[node] { return done }
            if onPath[node] {
                let cycle = path[(path.firstIndex(of: node) ?? 0)...].map { names[$0] } + [names[node]]
                throw TypeDeclarationError(file: sources[node], entry: names[node], problem: .conformanceCycle(cycle))
            }
            onPath[node] = true
            path.append(node)
            var ancestors: [Int] = []
            var seen = Set<Int>()
            for parent in parents[node] {
                if seen.insert(parent).inserted { ancestors.append(parent) }
                for ancestor in try visit(parent) where seen.insert(ancestor).inserted {
                    ancestors.append(ancestor)
                }
            }
            path.removeLast()
            onPath[node] = false
            result[node] = ancestors
            return ancestors
        }

        for node in parents.indices { _ = try visit(node) }
        return result.map { $0 ?? [] }
    }

    /// Orders the types claiming one tag, best first: public types, then exported declarations,
    /// then the given order (the database's declaration order). The sort is stable.
    package static func preferenceOrder<T>(_ candidates: [T], traits: (T) -> (isPublic: Bool, isExported: Bool)) -> [T] {
        candidates.enumerated().sorted { lhs, rhs in
            let left = traits(lhs.element), right = traits(rhs.element)
            if left.isPublic != right.isPublic { return left.isPublic }
            if left.isExported != right.isExported { return left.isExported }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
