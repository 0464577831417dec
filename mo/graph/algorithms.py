"""Graph algorithms mo needs on its own (networkx's would load its whole algorithm catalogue)."""


def find_cycle(successors) -> list:
    """The nodes of one directed cycle, in order, or [] (``successors``: node -> iterable of nodes).

    Iterative depth-first search in linear time: a node is 'open' while its descendants are being
    explored, and an edge to an open node closes a cycle made of the open path from that node on.
    """
    done, open_at = set(), {}
    for root in successors:
        if root in done:
            continue
        path, stack = [root], [iter(successors[root])]
        open_at[root] = 0
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                finished = path.pop()
                del open_at[finished]
                done.add(finished)
            elif child in open_at:
                return path[open_at[child]:]
            elif child not in done:
                open_at[child] = len(path)
                path.append(child)
                stack.append(iter(successors[child]))
    return []
