"""The complex inverse trigonometric and hyperbolic functions on the float form [..., 2], on TF's principal branches
(those of C99 and numpy): a rewrite per op for ``complex_linear``'s REWRITES.

With z = x + yi, r = |z + 1|, s = |z - 1|, a = (r + s) / 2 >= 1 and c = x / a in [-1, 1] (Abramowitz and Stegun
4.4.37-39):

* asin z = asin c + i sign(y) acosh a, acos z = acos c - i sign(y) acosh a, acosh z = acosh a + i sign(y) acos c;
* atanh z = log(|1 + z|^2 / |1 - z|^2) / 4 + i atan2(2y, 1 - x^2 - y^2) / 2, the log as
  sign(x) log1p(4|x| / |1 - |x| + yi|^2);
* asinh z = -i asin(iz), atan z = -i atanh(iz), with iz = -y + xi.

sign(y) is that of y's sign bit, so that on a branch cut (y = +-0) the value is the limit from the side the zero's
sign names, as in TF. asin c and acos c are Atan2(x, w) and Atan2(w, x) with w = sqrt(a^2 - x^2), and acosh a is
log1p((a - 1) + sqrt((a - 1)(a + 1))), with a - 1 and a - |x| from differences that do not cancel: they keep their
digits near the segment [-1, 1] and near the cuts, where asin c, acos c and acosh a of a rounded a or c would not.
"""
from extensions.front.tf.complex_kit import pair, parts, parts_type
from mo.ops.activation_ops import Abs, Log, Sqrt
from mo.ops.elementwise import Add, Div, Equal, Greater, Less, LogicalNot, LogicalOr, Maximum, Mul, Sub
from mo.ops.math_ops import IsInf
from mo.ops.op import Op
from mo.ops.select import Select


class _Real:
    """Real arithmetic on parts of one type, each node named ``<tag>/<suffix>``."""

    def __init__(self, b, dtype, tag: str):
        self.b, self.dtype, self.tag = b, dtype, tag

    def const(self, value, suffix):
        return self.b.const(value, self.tag + '/' + suffix, self.dtype)

    def op(self, op_class, inputs, suffix, **attrs):
        return self.b.op(op_class, inputs, self.tag + '/' + suffix, **attrs)

    def square(self, v, suffix):
        return self.op(Mul, [v, v], suffix)

    def negated(self, v, suffix):
        return self.op(Mul, [v, self.const(-1, suffix + '/minus')], suffix)

    def sign_bit(self, v, suffix):
        """v < 0, or 1 / v < 0 (which tells -0.0 from +0.0)."""
        below = self.op(Less, [v, self.const(0, suffix + '/zero')], suffix + '/below')
        inverse = self.op(Div, [self.const(1, suffix + '/one'), v], suffix + '/inverse')
        return self.op(LogicalOr, [below, self.op(Less, [inverse, self.const(0, suffix + '/zero_inverse')],
                                                  suffix + '/inverse_below')], suffix)

    def signed(self, magnitude, negative, suffix):
        """``magnitude`` with the sign ``negative`` names."""
        return self.op(Select, [negative, self.negated(magnitude, suffix + '/negated'), magnitude], suffix)

    def log1p(self, u, suffix):
        """log(1 + u) in Goldberg's form: Log(w) u / (w - 1), w = 1 + u (u where w rounds to 1, Log(w) where w is
        infinite)."""
        w = self.op(Add, [u, self.const(1, suffix + '/one')], suffix + '/w')
        log = self.op(Log, [w], suffix + '/log')
        ratio = self.op(Div, [u, self.op(Sub, [w, self.const(1, suffix + '/one_back')], suffix + '/w_minus_one')],
                        suffix + '/ratio')
        general = self.op(Select, [self.op(IsInf, [w], suffix + '/infinite'), log,
                                   self.op(Mul, [log, ratio], suffix + '/general')], suffix + '/finite')
        return self.op(Select, [self.op(Equal, [w, self.const(1, suffix + '/one_value')], suffix + '/tiny'), u,
                                general], suffix)

    def atan2(self, y, x, suffix):
        """Atan2 (the internal op ``math_lowering`` builds, IEEE's signed zeros included)."""
        return self.b.op(Op, [y, x], self.tag + '/' + suffix, op='Atan2', data_type=self.dtype, in_ports_count=2,
                         out_ports_count=1)


def _asin_terms(r: _Real, x, y):
    """(w, acosh a, y's sign bit) of the module docstring's formulas, w = sqrt(a^2 - x^2) = a sqrt(1 - c^2).

    With X = |x| (a does not depend on x's sign), r = |X + 1 + yi| and s = |X - 1 + yi|, the differences that
    would cancel are quotients: r - (X + 1) = y^2 / (r + X + 1), and s - (1 - X) = y^2 / (s + 1 - X) where X < 1,
    s - (X - 1) likewise where X > 1; so a - 1 and a - X keep their digits where they are small (near the segment
    [-1, 1] and near the cuts), and with them acosh a and the real parts, Atan2(x, w) and Atan2(w, x)."""
    y_squared = r.square(y, 'y_squared')
    big_x = r.op(Abs, [x], 'x_abs')
    plus = r.op(Add, [big_x, r.const(1, 'one_plus')], 'x_plus_one')
    minus = r.op(Sub, [r.const(1, 'one_minus'), big_x], 'one_minus_x')
    to_minus_one = r.op(Sqrt, [r.op(Add, [r.square(plus, 'plus_squared'), y_squared], 'r_squared')], 'r')
    to_one = r.op(Sqrt, [r.op(Add, [r.square(minus, 'minus_squared'), y_squared], 's_squared')], 's')
    half = r.const(0.5, 'half')
    a = r.op(Maximum, [r.op(Mul, [r.op(Add, [to_minus_one, to_one], 'r_plus_s'), half], 'a_rounded'),
                       r.const(1, 'one_a')], 'a')
    r_excess = r.op(Div, [y_squared, r.op(Add, [to_minus_one, plus], 'r_plus')], 'r_excess')  # r - (X + 1)
    inside = r.op(Greater, [minus, r.const(0, 'zero_minus')], 'inside')
    s_quotient = r.op(Div, [y_squared, r.op(Add, [to_one, r.op(Abs, [minus], 'minus_abs')], 's_plus')],
                      's_quotient')  # s - |1 - X|
    s_sum = r.op(Add, [to_one, minus], 's_sum')
    s_difference = r.op(Sub, [to_one, minus], 's_difference')
    a_minus_one = r.op(Mul, [r.op(Add, [r_excess, r.op(Select, [inside, s_quotient, s_difference], 's_excess')],
                                  'one_excess'), half], 'a_minus_one')
    a_minus_x = r.op(Mul, [r.op(Add, [r_excess, r.op(Select, [inside, s_sum, s_quotient], 's_beyond_x')],
                                'x_excess'), half], 'a_minus_x')
    root = r.op(Sqrt, [r.op(Mul, [a_minus_one, r.op(Add, [a, r.const(1, 'one_more')], 'a_plus_one')],
                            'a_squared_minus_one')], 'root')
    acosh_a = r.log1p(r.op(Add, [a_minus_one, root], 'acosh_argument'), 'acosh_a')
    w = r.op(Sqrt, [r.op(Mul, [a_minus_x, r.op(Add, [a, big_x], 'a_plus_x')], 'a_squared_minus_x_squared')], 'w')
    return w, acosh_a, r.sign_bit(y, 'y_negative')


def _asin(r: _Real, x, y):
    w, acosh_a, negative = _asin_terms(r, x, y)
    return r.atan2(x, w, 'asin_c'), r.signed(acosh_a, negative, 'imag')


def _atanh(r: _Real, x, y):
    """Real part sign(x) log1p(4|x| / |1 - |x| + yi|^2) / 4 (the log of |1 + z|^2 / |1 - z|^2, odd in x: with |x| the
    log1p's argument is >= 0 and nothing cancels, near 0 or near -1; +-inf at z = +-1), imaginary part
    atan2(2y, (1 - x)(1 + x) - y^2) / 2."""
    y_squared = r.square(y, 'y_squared')
    big_x = r.op(Abs, [x], 'x_abs')
    to_one = r.op(Add, [r.square(r.op(Sub, [r.const(1, 'one_minus_abs'), big_x], 'one_minus_x_abs'), 'minus_squared'),
                        y_squared], 'norm_minus')
    ratio = r.op(Div, [r.op(Mul, [big_x, r.const(4, 'four')], 'four_x'), to_one], 'ratio')
    size = r.op(Mul, [r.log1p(ratio, 'log_ratio'), r.const(0.25, 'quarter')], 'real_abs')
    real = r.signed(size, r.sign_bit(x, 'x_negative'), 'real')
    one_minus_x = r.op(Sub, [r.const(1, 'one_minus'), x], 'one_minus_x')
    one_plus_x = r.op(Add, [x, r.const(1, 'one_plus')], 'x_plus_one')
    across = r.op(Sub, [r.op(Mul, [one_minus_x, one_plus_x], 'one_minus_x_squared'), y_squared], 'across')
    angle = r.atan2(r.op(Add, [y, y], 'two_y'), across, 'angle')
    return real, r.op(Mul, [angle, r.const(0.5, 'half')], 'imag')


def _rewrite(formula):
    """A rewrite(node, b) computing ``formula(r, x, y) -> (real, imag)`` on z = x + yi."""
    def rewrite(node, b):
        x, y = parts(b, node.in_port(0), 'parts')
        r = _Real(b, parts_type(node), node.soft_get('op').lower())
        real, imag = formula(r, x, y)
        return pair(b, real, imag, 'complex')
    return rewrite


def _acos(r, x, y):
    w, acosh_a, negative = _asin_terms(r, x, y)
    return r.atan2(w, x, 'acos_c'), r.signed(acosh_a, r.op(LogicalNot, [negative], 'y_positive'), 'imag')


def _acosh(r, x, y):
    w, acosh_a, negative = _asin_terms(r, x, y)
    return acosh_a, r.signed(r.atan2(w, x, 'acos_c'), negative, 'imag')


def _asinh(r, x, y):
    u, v = _asin(r, r.negated(y, 'iz_real'), x)
    return v, r.negated(u, 'imag')


def _atan(r, x, y):
    p, q = _atanh(r, r.negated(y, 'iz_real'), x)
    return q, r.negated(p, 'imag')


#: op -> rewrite(node, b)
REWRITES = {'Asin': _rewrite(_asin), 'Acos': _rewrite(_acos), 'Acosh': _rewrite(_acosh), 'Asinh': _rewrite(_asinh),
            'Atanh': _rewrite(_atanh), 'Atan': _rewrite(_atan)}
