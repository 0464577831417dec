"""Complex forms of the ops that move, pick or scatter elements (depth/space moves, diagonals and bands, scatters,
stitches and segments, sparse fills, tensor arrays and lists) on the float form [..., 2]: see ``complex_tensors``
for the protocol.
"""

#: op -> rewrite(node, b): builds the float form of the node's output 0 and returns that node (or output port)
REWRITES = {}
#: op -> edit(node, b): adjusts the node in place for the float form; its connected outputs hold float forms
IN_PLACE = {}
#: ops among the above whose outputs are not complex (a boolean or an index result)
REAL_OUTPUTS = set()
