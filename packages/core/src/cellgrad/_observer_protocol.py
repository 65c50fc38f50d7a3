"""The observer protocol of `cellgrad.observe` with every method a no-op, in a module that
imports nothing: observers defined where importing `cellgrad.observe` (which imports the Cell
machinery) would be circular subclass it from here."""


class Observer:
    """The observer protocol with every method a no-op."""

    def op_begin(self, op, inputs, attrs):
        pass

    def op_end(self, op, inputs, attrs, result):
        pass

    def op_abort(self, op):
        pass

    def backward_begin(self, op):
        pass

    def backward_end(self, op):
        pass

    def cell_begin(self, cell, args, kwargs):
        pass

    def cell_end(self, cell, result):
        pass

    def cell_abort(self, cell):
        pass
