"""Small real programs, one per language the "code" strategy outlines, and what their outlines
hold: `(code_type, name, first line, last line)`, 1-based, children indented by nesting."""

from __future__ import annotations

SOURCES: dict[str, str] = {
    "python": '''import os

# The answer.
ANSWER = 42


@dataclass
class Point:
    """A point."""

    x: int = 0

    def norm(self) -> float:
        return (self.x**2) ** 0.5

    class Inner:
        def f(self) -> None:
            pass


async def main() -> None:
    def helper() -> int:
        return 1

    print(helper())
''',
    "java": """package demo;

import java.util.List;

/** A point. */
@Deprecated
public class Point extends Base implements Shape {
    private int x = 1;

    /** Makes one. */
    public Point(int x) {
        this.x = x;
    }

    @Override
    public int get() {
        return x;
    }

    enum Kind {
        A,
        B;

        int code() {
            return 1;
        }
    }
}

interface Shape {
    int get();
}
""",
    "kotlin": """package demo

import kotlin.math.sqrt

/** A point. */
data class Point(val x: Double) : Shape {
    val zero = 0

    override fun norm(): Double {
        return sqrt(x * x)
    }

    companion object {
        fun origin() = Point(0.0)
    }
}

interface Shape {
    fun norm(): Double
}

object Registry {
    fun all(): List<Shape> = listOf()
}

fun main() {
    println(Point(1.0).norm())
}
""",
    "javascript": """import fs from "fs";

// A point.
export class Point extends Base {
  constructor(x) {
    super();
    this.x = x;
  }

  norm() {
    return Math.abs(this.x);
  }
}

function top(a) {
  return a;
}

const arrow = (a) => a + 1;

export default function () {
  return 0;
}

module.exports = { top };
""",
    "typescript": """import { x } from "y";

export interface Shape {
  norm(): number;
}

export type Pair = { a: number; b: number };

/** A point. */
export class Point implements Shape {
  private x = 1;

  constructor(private readonly y: number) {}

  norm(): number {
    return this.x;
  }
}

namespace Geometry {
  export function area(): number {
    return 0;
  }
}

export const double = (a: number): number => a * 2;
""",
    "go": """package main

import "fmt"

// Point is a point.
type Point struct {
	X int
}

type Shape interface {
	Norm() int
}

// Norm returns the norm.
func (p *Point) Norm() int {
	return p.X
}

func main() {
	fmt.Println(Point{1}.Norm())
}
""",
    "rust": """use std::fmt;

/// A point.
#[derive(Debug)]
pub struct Point {
    x: i32,
}

pub trait Shape {
    fn norm(&self) -> i32;
}

impl Shape for Point {
    fn norm(&self) -> i32 {
        self.x
    }
}

mod geometry {
    pub fn area() -> i32 {
        0
    }
}

fn main() {
    println!("{:?}", Point { x: 1 });
}
""",
}

OUTLINES: dict[str, list[tuple[str, str, int, int, list[tuple[str, str, int, int]]]]] = {
    "python": [
        (
            "class",
            "Point",
            7,
            18,
            [("method", "Point.norm", 13, 14), ("class", "Point.Inner", 16, 18)],
        ),
        ("function", "main", 21, 25, [("function", "main.helper", 22, 23)]),
    ],
    "java": [
        (
            "class",
            "Point",
            5,
            28,
            [
                ("constructor", "Point.Point", 10, 13),
                ("method", "Point.get", 15, 18),
                ("enum", "Point.Kind", 20, 27),
            ],
        ),
        ("interface", "Shape", 30, 32, [("method", "Shape.get", 31, 31)]),
    ],
    "kotlin": [
        (
            "class",
            "Point",
            5,
            16,
            [("method", "Point.norm", 9, 11), ("object", "Point.Companion", 13, 15)],
        ),
        ("interface", "Shape", 18, 20, [("method", "Shape.norm", 19, 19)]),
        ("object", "Registry", 22, 24, [("method", "Registry.all", 23, 23)]),
        ("function", "main", 26, 28, []),
    ],
    "javascript": [
        (
            "class",
            "Point",
            3,
            13,
            [("method", "Point.constructor", 5, 8), ("method", "Point.norm", 10, 12)],
        ),
        ("function", "top", 15, 17, []),
        ("function", "arrow", 19, 19, []),
        ("function", "default", 21, 23, []),
    ],
    "typescript": [
        ("interface", "Shape", 3, 5, []),
        ("type", "Pair", 7, 7, []),
        (
            "class",
            "Point",
            9,
            18,
            [("method", "Point.constructor", 13, 13), ("method", "Point.norm", 15, 17)],
        ),
        ("namespace", "Geometry", 20, 24, [("function", "Geometry.area", 21, 23)]),
        ("function", "double", 26, 26, []),
    ],
    "go": [
        ("struct", "Point", 5, 8, []),
        ("interface", "Shape", 10, 12, []),
        ("method", "Point.Norm", 14, 17, []),
        ("function", "main", 19, 21, []),
    ],
    "rust": [
        ("struct", "Point", 3, 7, []),
        ("trait", "Shape", 9, 11, [("method", "Shape.norm", 10, 10)]),
        ("impl", "Point", 13, 17, [("method", "Point.norm", 14, 16)]),
        ("module", "geometry", 19, 23, [("function", "geometry.area", 20, 22)]),
        ("function", "main", 25, 27, []),
    ],
}
