import json as js
from .base import Base
from . import sibling


def parse(data):
    return js.loads(data)


def handle(parse=None):
    result = parse
    items = [parse for parse in range(3)]
    return result, items, (lambda parse: parse)(1)


class Parser(Base):
    def parse(self, text):
        return self.parse, parse(text)

    def other(self):
        parse = 1
        return parse + self.parse_count


def main():
    p = Parser()
    return parse("{}"), p.parse, sibling.parse
