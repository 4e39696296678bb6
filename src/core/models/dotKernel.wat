;; dots(matrix, rows, dim, query, out): out[r] = the dot product of row r of a rows x dim matrix of f32
;; with a query of dim f32, as f64, for every row (byte addresses; dim a multiple of 4). The same sums
;; as rowDot in nodeVectors.ts: each f32 widened to f64, products accumulated in four running sums by
;; index mod 4 (here lanes 0-1 of $ab and of $cd), added as ((s0 + s1) + s2) + s3.
;; Assembled into dotKernel.ts by scripts/dotKernel.mjs.
(module
  (import "env" "memory" (memory 1))
  (func (export "dots") (param $matrix i32) (param $rows i32) (param $dim i32) (param $query i32) (param $out i32)
    (local $row i32) (local $end i32) (local $i i32) (local $bytes i32) (local $ab v128) (local $cd v128)
    (local.set $bytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $row (local.get $matrix))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 3))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $ab (v128.const f64x2 0 0))
        (local.set $cd (v128.const f64x2 0 0))
        (local.set $i (i32.const 0))
        (block $rowDone
          (loop $columns
            (br_if $rowDone (i32.ge_u (local.get $i) (local.get $bytes)))
            (local.set $ab (f64x2.add (local.get $ab) (f64x2.mul
              (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $row) (local.get $i))))
              (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $query) (local.get $i)))))))
            (local.set $cd (f64x2.add (local.get $cd) (f64x2.mul
              (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.add (local.get $row) (local.get $i))))
              (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (i32.add (local.get $query) (local.get $i)))))))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $columns)))
        (f64.store (local.get $out)
          (f64.add
            (f64.add (f64.add (f64x2.extract_lane 0 (local.get $ab)) (f64x2.extract_lane 1 (local.get $ab))) (f64x2.extract_lane 0 (local.get $cd)))
            (f64x2.extract_lane 1 (local.get $cd))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $rows)))))
