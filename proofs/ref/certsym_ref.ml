(* certsym-ref: the executable reference of certsym, a thin driver around code
   extracted from the Coq development in proofs/coq (module Certsym_extracted).

   This file contains NO semantics of IMP: it parses one JSON request per line on
   stdin, converts JSON trees to the extracted syntax, calls one extracted entry
   point (ref_step, ref_expand, ref_aeval, ref_beval, ref_is_error; the run stream and
   the merged run stream iterate bfs_step and ref_mstep), and prints the
   answer as one JSON line on stdout.  Everything semantic, including the
   conversion between finite stores and the semantics' total stores, is extracted
   (see proofs/coq/Reference.v and its exactness theorems).  The protocol is
   documented in proofs/ref/README.md.  Integers are arbitrary precision (zarith). *)

module C = Certsym_extracted

(* ---- JSON values are yojson's (Debian libyojson-ocaml-dev, Yojson.Safe trees). Requests are
   read with Yojson.Raw, which keeps every integer as its text (`Intlit), and converted
   (of_raw): Yojson.Safe's own reader decides whether a literal fits an OCaml int by an overflow
   test that some literals pass after wrapping around (46116860184273879040, 5 * 2^63, reads as
   `Int 0), so it would silently change an input. Every integer the driver prints is an `Intlit
   of Z.to_string, printed in full without quotes. *)

type json = Yojson.Safe.t

exception Bad of string
let bad fmt = Printf.ksprintf (fun s -> raise (Bad s)) fmt

(* ---- JSON <-> extracted syntax (a bijection on trees; no evaluation). *)

let field (o : json) k : json = match o with
  | `Assoc l -> (try List.assoc k l with Not_found -> bad "missing field %S" k)
  | _ -> bad "expected an object (looking for %S)" k
let str_of : json -> string = function `String s -> s | _ -> bad "expected a string"
let kind o = str_of (field o "k")
let int_of : json -> Z.t = function
  | `Int n -> Z.of_int n
  | `Intlit t -> Z.of_string t
  | `Float _ -> bad "only integers are allowed"
  | _ -> bad "expected an integer"
let num z : json = `Intlit (Z.to_string z)

(* A request as read by Yojson.Raw, with integers kept as text and strings decoded. *)
let rec of_raw : Yojson.Raw.t -> json = function
  | `Intlit t -> `Intlit t
  | `Floatlit _ -> bad "only integers are allowed"
  | `Stringlit lit -> (match Yojson.Safe.from_string lit with `String s -> `String s | _ -> bad "bad string")
  | `Bool b -> `Bool b
  | `Null -> `Null
  | `Assoc l -> `Assoc (List.map (fun (k, v) -> (k, of_raw v)) l)
  | `List l -> `List (List.map of_raw l)
  | `Tuple _ | `Variant _ -> bad "not JSON"
let str s : json = `String s

(* Array declarations of the request's program ("arrays": [{"x":"a","lo":1,"hi":5}, ...]):
   the bounds written on every element read and write of a program (a name resolution, no
   semantics: Reference.v proves the reference exact for programs whose writes carry their
   declaration's bounds, which is how this driver builds them). *)
let decls : (string * (Z.t * Z.t)) list ref = ref []
let opt_field (o : json) k : json option = match o with `Assoc l -> List.assoc_opt k l | _ -> None
let decls_of (req : json) = match opt_field req "arrays" with
  | None -> []
  | Some (`List l) -> List.map (fun d -> (str_of (field d "x"), (int_of (field d "lo"), int_of (field d "hi")))) l
  | Some _ -> bad "arrays: expected an array of declarations"
let c_decls () : ((string * Z.t) * Z.t) list = List.map (fun (a, (lo, hi)) -> ((a, lo), hi)) !decls
let bounds_of j name = match opt_field j "lo", opt_field j "hi" with
  | Some lo, Some hi -> (int_of lo, int_of hi)
  | _ -> (match List.assoc_opt name !decls with
          | Some b -> b
          | None -> bad "undeclared array %S" name)

let kind_name = function
  | C.KFail -> "fail" | C.KDiv -> "division-by-zero" | C.KIdx -> "index-out-of-range"
let kind_of = function
  | "fail" | "assert" -> C.KFail | "division-by-zero" -> C.KDiv | "index-out-of-range" -> C.KIdx
  | k -> bad "unknown error kind %S" k

let rec root = function C.AVar a -> a | C.AStore (t, _, _) -> root t

let rec aexpr_of j : C.aexpr =
  let bin f = f (aexpr_of (field j "l")) (aexpr_of (field j "r")) in
  match kind j with
  | "num" -> C.Cst (int_of (field j "n"))
  | "var" -> C.Var (str_of (field j "x"))
  | "neg" -> C.Neg (aexpr_of (field j "e"))
  | "add" -> bin (fun l r -> C.Add (l, r)) | "sub" -> bin (fun l r -> C.Sub (l, r))
  | "mul" -> bin (fun l r -> C.Mul (l, r)) | "div" -> bin (fun l r -> C.Div (l, r))
  | "mod" -> bin (fun l r -> C.Mod (l, r))
  | "sel" ->
    let t = (match opt_field j "t" with Some t -> arr_of t | None -> C.AVar (str_of (field j "x"))) in
    let (lo, hi) = bounds_of j (root t) in
    C.Sel (t, lo, hi, aexpr_of (field j "e"))
  | "bvar" -> C.BVar (str_of (field j "x"))
  | k -> bad "unknown arithmetic expression kind %S" k
and arr_of j : C.arr =
  match kind j with
  | "array" -> C.AVar (str_of (field j "x"))
  | "store" -> C.AStore (arr_of (field j "t"), aexpr_of (field j "i"), aexpr_of (field j "v"))
  | k -> bad "unknown array term kind %S" k

let rec json_of_aexpr (a : C.aexpr) : json =
  let bin k l r = `Assoc [("k", str k); ("l", json_of_aexpr l); ("r", json_of_aexpr r)] in
  match a with
  | C.Cst n -> `Assoc [("k", str "num"); ("n", num n)]
  | C.Var x -> `Assoc [("k", str "var"); ("x", str x)]
  | C.Neg e -> `Assoc [("k", str "neg"); ("e", json_of_aexpr e)]
  | C.Add (l, r) -> bin "add" l r | C.Sub (l, r) -> bin "sub" l r
  | C.Mul (l, r) -> bin "mul" l r | C.Div (l, r) -> bin "div" l r
  | C.Mod (l, r) -> bin "mod" l r
  | C.Sel (t, lo, hi, e) ->
    `Assoc [("k", str "sel"); ("t", json_of_arr t); ("lo", num lo); ("hi", num hi); ("e", json_of_aexpr e)]
  | C.BVar k -> `Assoc [("k", str "bvar"); ("x", str k)]
and json_of_arr (t : C.arr) : json =
  match t with
  | C.AVar a -> `Assoc [("k", str "array"); ("x", str a)]
  | C.AStore (t, i, v) ->
    `Assoc [("k", str "store"); ("t", json_of_arr t); ("i", json_of_aexpr i); ("v", json_of_aexpr v)]

let rec bexpr_of j : C.bexpr =
  let cmp f = f (aexpr_of (field j "l")) (aexpr_of (field j "r")) in
  let con f = f (bexpr_of (field j "l")) (bexpr_of (field j "r")) in
  match kind j with
  | "true" -> C.Btrue | "false" -> C.Bfalse
  | "eq" -> cmp (fun l r -> C.Beq (l, r)) | "ne" -> cmp (fun l r -> C.Bne (l, r))
  | "lt" -> cmp (fun l r -> C.Blt (l, r)) | "le" -> cmp (fun l r -> C.Ble (l, r))
  | "gt" -> cmp (fun l r -> C.Bgt (l, r)) | "ge" -> cmp (fun l r -> C.Bge (l, r))
  | "not" -> C.Bnot (bexpr_of (field j "b"))
  | "and" -> con (fun l r -> C.Band (l, r)) | "or" -> con (fun l r -> C.Bor (l, r))
  | ("forall" | "exists") as q ->
    C.Bquant (q = "exists", str_of (field j "x"), aexpr_of (field j "l"), aexpr_of (field j "r"),
              bexpr_of (field j "b"))
  | "first" ->
    C.Bfirst (str_of (field j "x"), aexpr_of (field j "l"), aexpr_of (field j "r"),
              bexpr_of (field j "d"), bexpr_of (field j "f"))
  | k -> bad "unknown boolean expression kind %S" k

let rec json_of_bexpr (b : C.bexpr) : json =
  let cmp k l r = `Assoc [("k", str k); ("l", json_of_aexpr l); ("r", json_of_aexpr r)] in
  let con k l r = `Assoc [("k", str k); ("l", json_of_bexpr l); ("r", json_of_bexpr r)] in
  match b with
  | C.Btrue -> `Assoc [("k", str "true")] | C.Bfalse -> `Assoc [("k", str "false")]
  | C.Beq (l, r) -> cmp "eq" l r | C.Bne (l, r) -> cmp "ne" l r
  | C.Blt (l, r) -> cmp "lt" l r | C.Ble (l, r) -> cmp "le" l r
  | C.Bgt (l, r) -> cmp "gt" l r | C.Bge (l, r) -> cmp "ge" l r
  | C.Bnot b -> `Assoc [("k", str "not"); ("b", json_of_bexpr b)]
  | C.Band (l, r) -> con "and" l r | C.Bor (l, r) -> con "or" l r
  | C.Bquant (ex, k, l, r, b) ->
    `Assoc [("k", str (if ex then "exists" else "forall")); ("x", str k); ("l", json_of_aexpr l);
            ("r", json_of_aexpr r); ("b", json_of_bexpr b)]
  | C.Bfirst (k, l, r, d, f) ->
    `Assoc [("k", str "first"); ("x", str k); ("l", json_of_aexpr l); ("r", json_of_aexpr r);
            ("d", json_of_bexpr d); ("f", json_of_bexpr f)]

let rec stmt_of j : C.stmt =
  match kind j with
  | "skip" -> C.Skip
  | "fail" -> C.Fail (match opt_field j "kind" with None -> C.KFail | Some k -> kind_of (str_of k))
  | "assign" -> C.Assign (str_of (field j "x"), aexpr_of (field j "e"))
  | "aassign" ->
    let a = str_of (field j "x") in
    let (lo, hi) = bounds_of j a in
    C.AAssign (a, lo, hi, aexpr_of (field j "l"), aexpr_of (field j "e"))
  | "seq" -> C.Seq (stmt_of (field j "p"), stmt_of (field j "q"))
  | "if" -> C.If (bexpr_of (field j "b"), stmt_of (field j "p"), stmt_of (field j "q"))
  | "while" -> C.While (bexpr_of (field j "b"), stmt_of (field j "p"))
  | "assume" -> C.Assume (bexpr_of (field j "b"))
  | k -> bad "unknown statement kind %S" k

let rec json_of_stmt (p : C.stmt) : json =
  match p with
  | C.Skip -> `Assoc [("k", str "skip")]
  | C.Fail C.KFail -> `Assoc [("k", str "fail")]
  | C.Fail k -> `Assoc [("k", str "fail"); ("kind", str (kind_name k))]
  | C.Assign (x, e) -> `Assoc [("k", str "assign"); ("x", str x); ("e", json_of_aexpr e)]
  | C.AAssign (a, lo, hi, i, e) ->
    `Assoc [("k", str "aassign"); ("x", str a); ("lo", num lo); ("hi", num hi);
            ("l", json_of_aexpr i); ("e", json_of_aexpr e)]
  | C.Seq (p, q) -> `Assoc [("k", str "seq"); ("p", json_of_stmt p); ("q", json_of_stmt q)]
  | C.If (b, p, q) ->
    `Assoc [("k", str "if"); ("b", json_of_bexpr b); ("p", json_of_stmt p); ("q", json_of_stmt q)]
  | C.While (b, p) -> `Assoc [("k", str "while"); ("b", json_of_bexpr b); ("p", json_of_stmt p)]
  | C.Assume b -> `Assoc [("k", str "assume"); ("b", json_of_bexpr b)]

(* Stores are JSON objects; a missing "store" field is the empty store.  A concrete store
   maps a scalar to an integer and an array to the list of its elements from lo to hi; a
   symbolic store maps a scalar to an expression and an array to an array term. *)
let assoc_of j = match j with
  | `Assoc l -> l
  | _ -> bad "a store must be a JSON object"
let store_json o = match opt_field o "store" with None -> [] | Some j -> assoc_of j
let conc_store o =
  let l = store_json o in
  (List.filter_map (fun (x, v) -> match v with `List _ -> None | _ -> Some (x, int_of v)) l,
   List.filter_map (fun (x, v) -> match v with `List vs -> Some (x, List.map int_of vs) | _ -> None) l)
let is_arr_term v = match opt_field v "k" with Some (`String ("array" | "store")) -> true | _ -> false
let sym_store o =
  let l = store_json o in
  (List.filter_map (fun (x, v) -> if is_arr_term v then None else Some (x, aexpr_of v)) l,
   List.filter_map (fun (x, v) -> if is_arr_term v then Some (x, arr_of v) else None) l)
let conc_store_json l la =
  `Assoc (List.map (fun (x, v) -> (x, num v)) l @ List.map (fun (a, vs) -> (a, `List (List.map num vs))) la)
let sym_store_json l la =
  `Assoc (List.map (fun (x, e) -> (x, json_of_aexpr e)) l @ List.map (fun (a, t) -> (a, json_of_arr t)) la)

let res_json conv = function
  | C.Ok v -> [("value", conv v)]
  | C.Er k -> [("value", `Null); ("fail", str (kind_name k))]

(* ---- The run stream (op run_start / run_next).

   [run (init p) n] (Run.v) is the state expanded at iteration [n] of the breadth-first
   exploration: the head of [queue expand_state n (init p)], and [queue] is [bfs_step] applied
   [n] times.  Computing [run] afresh for every [n] is quadratic, so the session keeps the
   queue and applies the extracted [bfs_step expand_state] once per state, which is [run]'s own
   definition unfolded one iteration at a time; for the first [check_prefix] states the driver
   also calls the extracted [run] and [find_bugs] themselves and answers an error if they
   disagree with the iteration.  Each state is classified by the extracted [classify] with the
   oracle that never answers (every error state is a [BugFound]: the unpruned stream). *)

let session : (C.stmt * string list * string list * (string * (Z.t * Z.t)) list * C.sym_state list * int) option ref = ref None
let check_prefix = 40
let no_oracle (_ : C.bexpr) : bool option = None

(* Bounded size of an expression tree (terms are shared in OCaml but printed as trees). *)
exception Too_big
let bounded_size limit =
  let n = ref 0 in
  let tick () = incr n; if !n > limit then raise Too_big in
  let rec a = function
    | C.Cst _ | C.Var _ | C.BVar _ -> tick ()
    | C.Neg e -> tick (); a e
    | C.Add (l, r) | C.Sub (l, r) | C.Mul (l, r) | C.Div (l, r) | C.Mod (l, r) -> tick (); a l; a r
    | C.Sel (t, _, _, e) -> tick (); at t; a e
  and at = function
    | C.AVar _ -> tick ()
    | C.AStore (t, i, v) -> tick (); at t; a i; a v in
  let rec b = function
    | C.Btrue | C.Bfalse -> tick ()
    | C.Beq (l, r) | C.Bne (l, r) | C.Blt (l, r) | C.Ble (l, r) | C.Bgt (l, r) | C.Bge (l, r) ->
      tick (); a l; a r
    | C.Bnot x -> tick (); b x
    | C.Band (l, r) | C.Bor (l, r) -> tick (); b l; b r
    | C.Bquant (_, _, l, r, x) -> tick (); a l; a r; b x
    | C.Bfirst (_, l, r, d, f) -> tick (); a l; a r; b d; b f in
  (a, at, b)

let state_json vars arrs limit (((phi, ss), p) : C.sym_state) status : json =
  let (sa, sat, sb) = bounded_size limit in
  sb phi;
  let (store, astore) = C.sstore_lists vars arrs ss in
  List.iter (fun (_, e) -> sa e) store;
  List.iter (fun (_, t) -> sat t) astore;
  `Assoc [("pc", json_of_bexpr phi);
       ("store", sym_store_json store astore);
       ("prog", json_of_stmt p);
       ("status", str status)]

let status_name = function
  | C.Pending -> "pending" | C.BugFound _ -> "bug" | C.Finished -> "finished"

let rec nat_of_int n = if n <= 0 then C.O else C.S (nat_of_int (n - 1))

(* Physical or structural equality of two extracted states (same terms, same program). *)
let same_state (((phi, ss), p) : C.sym_state) (((phi', ss'), p') : C.sym_state) vars arrs =
  phi = phi' && p = p' && C.sstore_lists vars arrs ss = C.sstore_lists vars arrs ss'

(* ---- The merged search (op merge_run).

   [ref_mrun p n] (MergeSearch.v) is the state expanded at iteration [n] of the breadth-first
   search with state merging, without pruning, under the policy [level_policy] (once a depth
   is complete, each group of its states with one continuation merged in place of the first).
   As for run_next, the driver iterates the extracted [ref_mstep] (one iteration, proved to be
   the stream's own, [ref_mstep_queue]) and checks the first [check_prefix] states against the
   extracted [ref_mrun] itself.  A merged store maps a variable to a guarded term: a term, or
   {"k":"ite","c":B,"t":G,"e":G} (the term of "t" where "c" holds, else that of "e"). *)

let rec int_of_nat = function C.O -> 0 | C.S n -> 1 + int_of_nat n

let rec json_of_guarded leaf (g : 'a C.guarded) : json = match g with
  | C.Leaf a -> leaf a
  | C.Ite (c, g1, g2) ->
    `Assoc [("k", str "ite"); ("c", json_of_bexpr c); ("t", json_of_guarded leaf g1);
            ("e", json_of_guarded leaf g2)]

let mstatus_name = function
  | C.MPending -> "pending" | C.MUnknown _ -> "unknown" | C.MBugFound _ -> "bug"
  | C.MFinished -> "finished"

let mitem_json vars arrs limit ((d, ((phi, g), p)) : C.mitem) status : json =
  let (sa, sat, sb) = bounded_size limit in
  let rec sg leaf = function
    | C.Leaf a -> leaf a
    | C.Ite (c, g1, g2) -> sb c; sg leaf g1; sg leaf g2 in
  sb phi;
  let (store, astore) = C.mstore_lists vars arrs g in
  List.iter (fun (_, e) -> sg sa e) store;
  List.iter (fun (_, t) -> sg sat t) astore;
  `Assoc [("depth", `Int (int_of_nat d));
          ("pc", json_of_bexpr phi);
          ("store", `Assoc (List.map (fun (x, e) -> (x, json_of_guarded json_of_aexpr e)) store @
                            List.map (fun (a, t) -> (a, json_of_guarded json_of_arr t)) astore));
          ("prog", json_of_stmt p);
          ("status", str status)]

(* Structural equality of two extracted items over the printed domain (a store of guarded
   terms holds functions, which OCaml cannot compare). *)
let same_mitem ((d, ((phi, g), p)) : C.mitem) ((d', ((phi', g'), p')) : C.mitem) vars arrs =
  d = d' && phi = phi' && p = p' && C.mstore_lists vars arrs g = C.mstore_lists vars arrs g'

(* ---- Requests. *)

let answer (req : json) : json =
  let ok fields = `Assoc (("ok", `Bool true) :: fields) in
  let op = str_of (field req "op") in
  if op <> "run_next" then decls := decls_of req;
  match op with
  | "step" ->
    let (l, la) = conc_store req and p = stmt_of (field req "prog") in
    (match C.ref_step (c_decls ()) l la p with
     | C.RNext (l', la', p') ->
       ok [("kind", str "next"); ("store", conc_store_json l' la'); ("prog", json_of_stmt p')]
     | C.RFinal -> ok [("kind", str "final")]
     | C.RError k -> ok [("kind", str "error"); ("fail", str (kind_name k))]
     | C.RStuck -> ok [("kind", str "stuck")])
  | "expand" ->
    let pc = (match opt_field req "pc" with None -> C.Btrue | Some j -> bexpr_of j) in
    let (l, la) = sym_store req and p = stmt_of (field req "prog") in
    let succ (((pc', s'), sa'), p') =
      `Assoc [("pc", json_of_bexpr pc'); ("store", sym_store_json s' sa'); ("prog", json_of_stmt p')] in
    ok [("succs", `List (List.map succ (C.ref_expand pc l la p)))]
  | "eval" ->
    let (l, la) = conc_store req and e = aexpr_of (field req "e") in
    ok (res_json num (C.ref_aeval (c_decls ()) l la e))
  | "evalb" ->
    let (l, la) = conc_store req and b = bexpr_of (field req "b") in
    ok (res_json (fun v -> `Bool v) (C.ref_beval (c_decls ()) l la b))
  | "run_start" ->
    let p = stmt_of (field req "prog") in
    let vars = (match field req "vars" with `List l -> List.map str_of l | _ -> bad "vars: expected an array") in
    session := Some (p, vars, List.map fst !decls, !decls, C.init p, 0);
    ok []
  | "run_next" ->
    let count = Z.to_int (int_of (field req "count")) in
    let limit = Z.to_int (int_of (field req "limit")) in
    (match !session with
     | None -> bad "run_next without run_start"
     | Some (p, vars, arrs, ds, q, n) ->
       let rec go q n k acc =
         if k = 0 then (q, n, List.rev acc, false, false) else
         match q with
         | [] -> (q, n, List.rev acc, true, false)
         | t :: _ ->
           let st = C.classify no_oracle (Some t) in
           if n < check_prefix then begin
             (match C.run (C.init p) (nat_of_int n) with
              | Some t' when same_state t t' vars arrs -> ()
              | _ -> bad "internal: the iterated queue disagrees with the extracted run at %d" n);
             if status_name (C.find_bugs no_oracle p (nat_of_int n)) <> status_name st then
               bad "internal: classify disagrees with the extracted find_bugs at %d" n
           end;
           match state_json vars arrs limit t (status_name st) with
           | exception Too_big -> (q, n, List.rev acc, false, true)
           | j -> go (C.bfs_step C.expand_state q) (n + 1) (k - 1) (j :: acc) in
       let (q', n', states, ended, too_big) = go q n count [] in
       if ended && n' < check_prefix &&
          status_name (C.find_bugs no_oracle p (nat_of_int n')) <> "finished" then
         bad "internal: the queue is empty at %d but the extracted find_bugs is not finished" n';
       session := Some (p, vars, arrs, ds, q', n');
       ok [("states", `List states); ("end", `Bool ended); ("too_big", `Bool too_big)])
  | "merge_run" ->
    let p = stmt_of (field req "prog") in
    let vars = (match field req "vars" with `List l -> List.map str_of l | _ -> bad "vars: expected an array") in
    let arrs = List.map fst !decls in
    let count = Z.to_int (int_of (field req "count")) in
    let limit = Z.to_int (int_of (field req "limit")) in
    let rec go q n k acc =
      if k = 0 then (n, List.rev acc, false, false) else
      match q with
      | [] -> (n, List.rev acc, true, false)
      | it :: _ ->
        if n < check_prefix then
          (match C.ref_mrun p (nat_of_int n) with
           | Some it' when same_mitem it it' vars arrs -> ()
           | _ -> bad "internal: the iterated queue disagrees with the extracted ref_mrun at %d" n);
        let st = C.ref_mstatus (nat_of_int n) (Some it) in
        match mitem_json vars arrs limit it (mstatus_name st) with
        | exception Too_big -> (n, List.rev acc, false, true)
        | j -> go (C.ref_mstep q) (n + 1) (k - 1) (j :: acc) in
    let (n', states, ended, too_big) = go (C.minit p) 0 count [] in
    if ended && n' < check_prefix then
      (match C.ref_mrun p (nat_of_int n') with
       | None -> ()
       | Some _ -> bad "internal: the queue is empty at %d but the extracted ref_mrun is not" n');
    ok [("states", `List states); ("end", `Bool ended); ("too_big", `Bool too_big)]
  | "is_error" ->
    let p = stmt_of (field req "prog") in
    ok ([("value", `Bool (C.ref_is_error p))] @
        (match C.ref_error_kind p with Some k -> [("fail", str (kind_name k))] | None -> []))
  | op -> bad "unknown op %S" op

let () =
  let rec loop () =
    match input_line stdin with
    | exception End_of_file -> ()
    | line ->
      if String.trim line <> "" then begin
        let reply =
          try answer (of_raw (Yojson.Raw.from_string line)) with
          | Bad msg | Yojson.Json_error msg -> `Assoc [("ok", `Bool false); ("error", str msg)]
          | Invalid_argument msg | Failure msg ->
            `Assoc [("ok", `Bool false); ("error", str msg)]
          | Z.Overflow -> `Assoc [("ok", `Bool false); ("error", str "integer out of range")] in
        print_string (Yojson.Safe.to_string reply); print_char '\n'; flush stdout
      end;
      loop () in
  loop ()
