(* certsym-ref: the executable reference of certsym, a thin driver around code
   extracted from the Coq development in proofs/coq (module Certsym_extracted).

   This file contains NO semantics of IMP: it parses one JSON request per line on
   stdin, converts JSON trees to the extracted syntax, calls one extracted entry
   point (ref_step, ref_expand, ref_aeval, ref_beval, ref_is_error), and prints the
   answer as one JSON line on stdout.  Everything semantic, including the
   conversion between finite stores and the semantics' total stores, is extracted
   (see proofs/coq/Reference.v and its exactness theorems).  The protocol is
   documented in proofs/ref/README.md.  Integers are arbitrary precision (zarith). *)

module C = Certsym_extracted

(* ---- A tiny JSON subset: null, true, false, integers, strings, arrays, objects. *)

type json =
  | Null
  | Bool of bool
  | Num of string          (* an integer token, kept as text *)
  | Str of string
  | Arr of json list
  | Obj of (string * json) list

exception Bad of string
let bad fmt = Printf.ksprintf (fun s -> raise (Bad s)) fmt

let parse (s : string) : json =
  let n = String.length s in
  let i = ref 0 in
  let peek () = if !i < n then s.[!i] else '\000' in
  let rec ws () = if !i < n && (match s.[!i] with ' ' | '\t' | '\r' | '\n' -> true | _ -> false)
    then (incr i; ws ()) in
  let expect c = ws (); if peek () <> c then bad "expected '%c' at offset %d" c !i; incr i in
  let lit w v = if !i + String.length w <= n && String.sub s !i (String.length w) = w
    then (i := !i + String.length w; v) else bad "bad literal at offset %d" !i in
  let str () =
    expect '"';
    let b = Buffer.create 16 in
    let rec go () =
      if !i >= n then bad "unterminated string";
      let c = s.[!i] in incr i;
      match c with
      | '"' -> ()
      | '\\' ->
        if !i >= n then bad "unterminated escape";
        let e = s.[!i] in incr i;
        (match e with
         | '"' -> Buffer.add_char b '"' | '\\' -> Buffer.add_char b '\\'
         | '/' -> Buffer.add_char b '/' | 'b' -> Buffer.add_char b '\b'
         | 'f' -> Buffer.add_char b '\012' | 'n' -> Buffer.add_char b '\n'
         | 'r' -> Buffer.add_char b '\r' | 't' -> Buffer.add_char b '\t'
         | 'u' ->
           if !i + 4 > n then bad "bad \\u escape";
           let code = int_of_string ("0x" ^ String.sub s !i 4) in
           i := !i + 4;
           if code >= 128 then bad "non-ASCII \\u escape not supported";
           Buffer.add_char b (Char.chr code)
         | _ -> bad "bad escape");
        go ()
      | c -> Buffer.add_char b c; go ()
    in
    go (); Buffer.contents b in
  let rec value () =
    ws ();
    match peek () with
    | 'n' -> lit "null" Null
    | 't' -> lit "true" (Bool true)
    | 'f' -> lit "false" (Bool false)
    | '"' -> Str (str ())
    | '[' ->
      incr i; ws ();
      if peek () = ']' then (incr i; Arr []) else
        let rec items acc =
          let v = value () in ws ();
          match peek () with
          | ',' -> incr i; items (v :: acc)
          | ']' -> incr i; Arr (List.rev (v :: acc))
          | _ -> bad "expected ',' or ']' at offset %d" !i in
        items []
    | '{' ->
      incr i; ws ();
      if peek () = '}' then (incr i; Obj []) else
        let rec fields acc =
          let k = str () in expect ':';
          let v = value () in ws ();
          match peek () with
          | ',' -> incr i; fields ((k, v) :: acc)
          | '}' -> incr i; Obj (List.rev ((k, v) :: acc))
          | _ -> bad "expected ',' or '}' at offset %d" !i in
        fields []
    | '-' | '0' .. '9' ->
      let st = !i in
      if peek () = '-' then incr i;
      let d = !i in
      while !i < n && s.[!i] >= '0' && s.[!i] <= '9' do incr i done;
      if !i = d then bad "bad number at offset %d" st;
      if !i < n && (match s.[!i] with '.' | 'e' | 'E' -> true | _ -> false) then
        bad "only integers are allowed (offset %d)" st;
      Num (String.sub s st (!i - st))
    | _ -> bad "unexpected character at offset %d" !i in
  let v = value () in ws ();
  if !i <> n then bad "trailing characters at offset %d" !i;
  v

let escape (s : string) : string =
  let b = Buffer.create (String.length s + 2) in
  Buffer.add_char b '"';
  String.iter (fun c -> match c with
      | '"' -> Buffer.add_string b "\\\"" | '\\' -> Buffer.add_string b "\\\\"
      | '\n' -> Buffer.add_string b "\\n" | '\r' -> Buffer.add_string b "\\r"
      | '\t' -> Buffer.add_string b "\\t"
      | c when Char.code c < 0x20 -> Buffer.add_string b (Printf.sprintf "\\u%04x" (Char.code c))
      | c -> Buffer.add_char b c) s;
  Buffer.add_char b '"';
  Buffer.contents b

let rec print (j : json) : string =
  match j with
  | Null -> "null"
  | Bool b -> if b then "true" else "false"
  | Num t -> t
  | Str s -> escape s
  | Arr l -> "[" ^ String.concat "," (List.map print l) ^ "]"
  | Obj l -> "{" ^ String.concat "," (List.map (fun (k, v) -> escape k ^ ":" ^ print v) l) ^ "}"

(* ---- JSON <-> extracted syntax (a bijection on trees; no evaluation). *)

let field o k = match o with
  | Obj l -> (try List.assoc k l with Not_found -> bad "missing field %S" k)
  | _ -> bad "expected an object (looking for %S)" k
let str_of = function Str s -> s | _ -> bad "expected a string"
let kind o = str_of (field o "k")
let int_of = function
  | Num t -> Z.of_string t
  | _ -> bad "expected an integer"
let num z = Num (Z.to_string z)

let rec aexpr_of j : C.aexpr =
  let bin f = f (aexpr_of (field j "l")) (aexpr_of (field j "r")) in
  match kind j with
  | "num" -> C.Cst (int_of (field j "n"))
  | "var" -> C.Var (str_of (field j "x"))
  | "neg" -> C.Neg (aexpr_of (field j "e"))
  | "add" -> bin (fun l r -> C.Add (l, r)) | "sub" -> bin (fun l r -> C.Sub (l, r))
  | "mul" -> bin (fun l r -> C.Mul (l, r)) | "div" -> bin (fun l r -> C.Div (l, r))
  | "mod" -> bin (fun l r -> C.Mod (l, r))
  | k -> bad "unknown arithmetic expression kind %S" k

let rec json_of_aexpr (a : C.aexpr) : json =
  let bin k l r = Obj [("k", Str k); ("l", json_of_aexpr l); ("r", json_of_aexpr r)] in
  match a with
  | C.Cst n -> Obj [("k", Str "num"); ("n", num n)]
  | C.Var x -> Obj [("k", Str "var"); ("x", Str x)]
  | C.Neg e -> Obj [("k", Str "neg"); ("e", json_of_aexpr e)]
  | C.Add (l, r) -> bin "add" l r | C.Sub (l, r) -> bin "sub" l r
  | C.Mul (l, r) -> bin "mul" l r | C.Div (l, r) -> bin "div" l r
  | C.Mod (l, r) -> bin "mod" l r

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
  | k -> bad "unknown boolean expression kind %S" k

let rec json_of_bexpr (b : C.bexpr) : json =
  let cmp k l r = Obj [("k", Str k); ("l", json_of_aexpr l); ("r", json_of_aexpr r)] in
  let con k l r = Obj [("k", Str k); ("l", json_of_bexpr l); ("r", json_of_bexpr r)] in
  match b with
  | C.Btrue -> Obj [("k", Str "true")] | C.Bfalse -> Obj [("k", Str "false")]
  | C.Beq (l, r) -> cmp "eq" l r | C.Bne (l, r) -> cmp "ne" l r
  | C.Blt (l, r) -> cmp "lt" l r | C.Ble (l, r) -> cmp "le" l r
  | C.Bgt (l, r) -> cmp "gt" l r | C.Bge (l, r) -> cmp "ge" l r
  | C.Bnot b -> Obj [("k", Str "not"); ("b", json_of_bexpr b)]
  | C.Band (l, r) -> con "and" l r | C.Bor (l, r) -> con "or" l r

let rec stmt_of j : C.stmt =
  match kind j with
  | "skip" -> C.Skip
  | "fail" -> C.Fail
  | "assign" -> C.Assign (str_of (field j "x"), aexpr_of (field j "e"))
  | "seq" -> C.Seq (stmt_of (field j "p"), stmt_of (field j "q"))
  | "if" -> C.If (bexpr_of (field j "b"), stmt_of (field j "p"), stmt_of (field j "q"))
  | "while" -> C.While (bexpr_of (field j "b"), stmt_of (field j "p"))
  | "assume" -> C.Assume (bexpr_of (field j "b"))
  | k -> bad "unknown statement kind %S" k

let rec json_of_stmt (p : C.stmt) : json =
  match p with
  | C.Skip -> Obj [("k", Str "skip")]
  | C.Fail -> Obj [("k", Str "fail")]
  | C.Assign (x, e) -> Obj [("k", Str "assign"); ("x", Str x); ("e", json_of_aexpr e)]
  | C.Seq (p, q) -> Obj [("k", Str "seq"); ("p", json_of_stmt p); ("q", json_of_stmt q)]
  | C.If (b, p, q) ->
    Obj [("k", Str "if"); ("b", json_of_bexpr b); ("p", json_of_stmt p); ("q", json_of_stmt q)]
  | C.While (b, p) -> Obj [("k", Str "while"); ("b", json_of_bexpr b); ("p", json_of_stmt p)]
  | C.Assume b -> Obj [("k", Str "assume"); ("b", json_of_bexpr b)]

(* Stores are JSON objects; a missing "store" field is the empty store. *)
let store_of conv j = match j with
  | Obj l -> List.map (fun (x, v) -> (x, conv v)) l
  | _ -> bad "a store must be a JSON object"
let opt_field o k = match o with Obj l -> List.assoc_opt k l | _ -> None
let store_field conv o = match opt_field o "store" with None -> [] | Some j -> store_of conv j

(* ---- The run stream (op run_start / run_next).

   [run (init p) n] (Run.v) is the state expanded at iteration [n] of the breadth-first
   exploration: the head of [queue expand_state n (init p)], and [queue] is [bfs_step] applied
   [n] times.  Computing [run] afresh for every [n] is quadratic, so the session keeps the
   queue and applies the extracted [bfs_step expand_state] once per state, which is [run]'s own
   definition unfolded one iteration at a time; for the first [check_prefix] states the driver
   also calls the extracted [run] and [find_bugs] themselves and answers an error if they
   disagree with the iteration.  Each state is classified by the extracted [classify] with the
   oracle that never answers (every error state is a [BugFound]: the unpruned stream). *)

let session : (C.stmt * string list * C.sym_state list * int) option ref = ref None
let check_prefix = 40
let no_oracle (_ : C.bexpr) : bool option = None

(* Bounded size of an expression tree (terms are shared in OCaml but printed as trees). *)
exception Too_big
let bounded_size limit =
  let n = ref 0 in
  let tick () = incr n; if !n > limit then raise Too_big in
  let rec a = function
    | C.Cst _ | C.Var _ -> tick ()
    | C.Neg e -> tick (); a e
    | C.Add (l, r) | C.Sub (l, r) | C.Mul (l, r) | C.Div (l, r) | C.Mod (l, r) -> tick (); a l; a r in
  let rec b = function
    | C.Btrue | C.Bfalse -> tick ()
    | C.Beq (l, r) | C.Bne (l, r) | C.Blt (l, r) | C.Ble (l, r) | C.Bgt (l, r) | C.Bge (l, r) ->
      tick (); a l; a r
    | C.Bnot x -> tick (); b x
    | C.Band (l, r) | C.Bor (l, r) -> tick (); b l; b r in
  (a, b)

let state_json vars limit (((phi, ss), p) : C.sym_state) status : json =
  let (sa, sb) = bounded_size limit in
  sb phi;
  let store = C.to_list vars ss in
  List.iter (fun (_, e) -> sa e) store;
  Obj [("pc", json_of_bexpr phi);
       ("store", Obj (List.map (fun (x, e) -> (x, json_of_aexpr e)) store));
       ("prog", json_of_stmt p);
       ("status", Str status)]

let status_name = function
  | C.Pending -> "pending" | C.BugFound _ -> "bug" | C.Finished -> "finished"

let rec nat_of_int n = if n <= 0 then C.O else C.S (nat_of_int (n - 1))

(* Physical or structural equality of two extracted states (same terms, same program). *)
let same_state (((phi, ss), p) : C.sym_state) (((phi', ss'), p') : C.sym_state) vars =
  phi = phi' && p = p' && C.to_list vars ss = C.to_list vars ss'

(* ---- Requests. *)

let answer (req : json) : json =
  let ok fields = Obj (("ok", Bool true) :: fields) in
  match str_of (field req "op") with
  | "step" ->
    let s = store_field int_of req and p = stmt_of (field req "prog") in
    (match C.ref_step s p with
     | C.RNext (s', p') ->
       ok [("kind", Str "next");
           ("store", Obj (List.map (fun (x, v) -> (x, num v)) s'));
           ("prog", json_of_stmt p')]
     | C.RFinal -> ok [("kind", Str "final")]
     | C.RError -> ok [("kind", Str "error")]
     | C.RStuck -> ok [("kind", Str "stuck")])
  | "expand" ->
    let pc = (match opt_field req "pc" with None -> C.Btrue | Some j -> bexpr_of j) in
    let s = store_field aexpr_of req and p = stmt_of (field req "prog") in
    let succ ((pc', s'), p') =
      Obj [("pc", json_of_bexpr pc');
           ("store", Obj (List.map (fun (x, e) -> (x, json_of_aexpr e)) s'));
           ("prog", json_of_stmt p')] in
    ok [("succs", Arr (List.map succ (C.ref_expand pc s p)))]
  | "eval" ->
    let s = store_field int_of req and e = aexpr_of (field req "e") in
    ok [("value", match C.ref_aeval s e with Some v -> num v | None -> Null)]
  | "evalb" ->
    let s = store_field int_of req and b = bexpr_of (field req "b") in
    ok [("value", match C.ref_beval s b with Some v -> Bool v | None -> Null)]
  | "run_start" ->
    let p = stmt_of (field req "prog") in
    let vars = (match field req "vars" with Arr l -> List.map str_of l | _ -> bad "vars: expected an array") in
    session := Some (p, vars, C.init p, 0);
    ok []
  | "run_next" ->
    let count = Z.to_int (int_of (field req "count")) in
    let limit = Z.to_int (int_of (field req "limit")) in
    (match !session with
     | None -> bad "run_next without run_start"
     | Some (p, vars, q, n) ->
       let rec go q n k acc =
         if k = 0 then (q, n, List.rev acc, false, false) else
         match q with
         | [] -> (q, n, List.rev acc, true, false)
         | t :: _ ->
           let st = C.classify no_oracle (Some t) in
           if n < check_prefix then begin
             (match C.run (C.init p) (nat_of_int n) with
              | Some t' when same_state t t' vars -> ()
              | _ -> bad "internal: the iterated queue disagrees with the extracted run at %d" n);
             if status_name (C.find_bugs no_oracle p (nat_of_int n)) <> status_name st then
               bad "internal: classify disagrees with the extracted find_bugs at %d" n
           end;
           match state_json vars limit t (status_name st) with
           | exception Too_big -> (q, n, List.rev acc, false, true)
           | j -> go (C.bfs_step C.expand_state q) (n + 1) (k - 1) (j :: acc) in
       let (q', n', states, ended, too_big) = go q n count [] in
       if ended && n' < check_prefix &&
          status_name (C.find_bugs no_oracle p (nat_of_int n')) <> "finished" then
         bad "internal: the queue is empty at %d but the extracted find_bugs is not finished" n';
       session := Some (p, vars, q', n');
       ok [("states", Arr states); ("end", Bool ended); ("too_big", Bool too_big)])
  | "is_error" ->
    ok [("value", Bool (C.ref_is_error (stmt_of (field req "prog"))))]
  | op -> bad "unknown op %S" op

let () =
  let rec loop () =
    match input_line stdin with
    | exception End_of_file -> ()
    | line ->
      if String.trim line <> "" then begin
        let reply =
          try answer (parse line) with
          | Bad msg -> Obj [("ok", Bool false); ("error", Str msg)]
          | Invalid_argument msg | Failure msg ->
            Obj [("ok", Bool false); ("error", Str msg)] in
        print_string (print reply); print_char '\n'; flush stdout
      end;
      loop () in
  loop ()
