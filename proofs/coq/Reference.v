(** * Entry points of the executable reference ([proofs/ref], [certsym-ref]).

    The semantics uses stores that are functions; the driver exchanges finite lists.
    This file converts between the two, in Coq, and proves the conversion exact, so
    that the hand-written driver only parses and prints:
    - a concrete store is a list [(x, v)]; unlisted variables are 0 (the tools'
      default input);
    - a symbolic store is a list [(x, e)]; unlisted variables map to themselves
      (the identity store [sid]);
    - results list every variable of the input store and of the program (a step
      or an expansion changes no other variable: [step_frame], [sym_step_frame]). *)

From Coq Require Import ZArith String List Bool Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Expand Expandproof.
Import ListNotations.

Fixpoint lookup {A : Type} (dflt : var -> A) (l : list (var * A)) (x : var) : A :=
  match l with
  | [] => dflt x
  | (y, v) :: l' => if String.eqb y x then v else lookup dflt l' x
  end.

(** Array declarations [(a, lo, hi)] (the first declaration of a name counts). *)
Definition decls := list (var * Z * Z).

Fixpoint lookup_decl (d : decls) (a : var) : option (Z * Z) :=
  match d with
  | [] => None
  | (b, lo, hi) :: d' => if String.eqb b a then Some (lo, hi) else lookup_decl d' a
  end.

(** A concrete store from its lists: scalars (unlisted: 0) and, for each declared array,
    its elements from [lo] on (unlisted array, missing element, or index outside the
    declaration: 0). *)
Definition store_of_lists (d : decls) (l : list (var * Z)) (la : list (var * list Z)) : store :=
  Store (lookup (fun _ => 0%Z) l)
        (fun a j => match lookup_decl d a with
                    | Some (lo, hi) =>
                        if in_range lo hi j then nth (Z.to_nat (j - lo)) (lookup (fun _ => []) la a) 0%Z
                        else 0%Z
                    | None => 0%Z
                    end).

(** A symbolic store from its lists: unlisted scalars and arrays map to themselves. *)
Definition sstore_of_lists (l : list (var * aexpr)) (la : list (var * arr)) : sstore :=
  SStore (lookup Var l) (lookup AVar la).

Definition to_list {A : Type} (d : list var) (f : var -> A) : list (var * A) :=
  map (fun x => (x, f x)) d.

(** The arrays of a concrete store, over their declarations. *)
Definition arrays_of (d : decls) (s : store) : list (var * list Z) :=
  map (fun '(a, lo, hi) => (a, map (sa s a) (zrange lo hi))) d.

(** The variables printed in a result. *)
Definition dom {A : Type} (l : list (var * A)) (p : stmt) : list var :=
  nodup string_dec (map fst l ++ svars p).

(** The arrays printed in a symbolic result: those of the input and those written. *)
Definition adom {A : Type} (la : list (var * A)) (p : stmt) : list var :=
  nodup string_dec (map fst la ++ map (fun '(a, _, _) => a) (swrites p)).

(** ** Entry points *)

Definition ref_aeval (d : decls) (l : list (var * Z)) (la : list (var * list Z)) (a : aexpr)
  : res Z := aeval (store_of_lists d l la) a.
Definition ref_beval (d : decls) (l : list (var * Z)) (la : list (var * list Z)) (b : bexpr)
  : res bool := beval (store_of_lists d l la) b.
Definition ref_is_error (p : stmt) : bool := is_error p.
Definition ref_error_kind (p : stmt) : option fkind := error_kind p.

Inductive ref_result : Type :=
  | RNext (l : list (var * Z)) (la : list (var * list Z)) (p : stmt)
  | RFinal
  | RError (k : fkind)
  | RStuck.

Definition ref_step (d : decls) (l : list (var * Z)) (la : list (var * list Z)) (p : stmt)
  : ref_result :=
  let s := store_of_lists d l la in
  match cstep s p with
  | Next s' p' => RNext (to_list (dom l p) (sv s')) (arrays_of d s') p'
  | Final => RFinal
  | Error => RError (match error_kind p with Some k => k | None => KFail end)
  | Stuck => RStuck
  end.

(** A symbolic state as lists: the scalars [vars] and the arrays [arrs]. *)
Definition sstore_lists (vars arrs : list var) (ss : sstore)
  : list (var * aexpr) * list (var * arr) :=
  (to_list vars (ssv ss), to_list arrs (ssa ss)).

Definition ref_expand (phi : bexpr) (l : list (var * aexpr)) (la : list (var * arr)) (p : stmt)
  : list (bexpr * list (var * aexpr) * list (var * arr) * stmt) :=
  map (fun t => let '(phi', ss', p') := t in
                (phi', to_list (dom l p) (ssv ss'), to_list (adom la p) (ssa ss'), p'))
      (expand phi (sstore_of_lists l la) p).

(** ** Frame lemmas *)

Lemma not_in_app : forall (x : var) l1 l2, ~ In x (l1 ++ l2) -> ~ In x l1 /\ ~ In x l2.
Proof. intros x l1 l2 H. split; intros H'; apply H, in_or_app; auto. Qed.

Lemma step_frame : forall s p s' p', step (s, p) (s', p') ->
  forall x, ~ In x (svars p) -> sv s' x = sv s x.
Proof.
  intros s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc'.
  induction H; intros s0 p0 s0' p0' E E' y Hy; inversion E; inversion E'; subst; try reflexivity.
  - simpl. destruct (String.eqb_spec x y) as [->|Hne]; [|reflexivity].
    exfalso. apply Hy. left. reflexivity.
  - simpl in Hy. apply not_in_app in Hy. eapply IHstep; eauto; apply Hy.
Qed.

(** Outside the bounds written on a program's writes, its arrays do not change. *)
Lemma step_frame_arr : forall s p s' p', step (s, p) (s', p') ->
  forall a j, (forall lo hi, In (a, lo, hi) (swrites p) -> in_range lo hi j = false) ->
  sa s' a j = sa s a j.
Proof.
  intros s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc'.
  induction H; intros s0 p0 s0' p0' E E' bb jj Hj; inversion E; inversion E'; subst; try reflexivity.
  - simpl. destruct (String.eqb_spec a bb) as [->|Hne]; [|reflexivity].
    destruct (Z.eqb_spec j jj) as [->|Hne]; [|reflexivity].
    exfalso. unfold weval, bind in H.
    destruct (aeval s0 i); [|discriminate]. destruct (aeval s0 e); [|discriminate].
    destruct (in_range lo hi v0) eqn:R; inversion H; subst.
    rewrite (Hj lo hi (or_introl eq_refl)) in R. discriminate.
  - apply (IHstep s0 p s0' p' eq_refl eq_refl bb jj).
    intros lo hi Hin. apply Hj. simpl. apply in_or_app. left. exact Hin.
Qed.

Lemma sym_step_frame : forall phi ss p phi' ss' p', sym_step (phi, ss, p) (phi', ss', p') ->
  (forall x, ~ In x (svars p) -> ssv ss' x = ssv ss x) /\
  (forall a, ~ In a (map (fun '(b, _, _) => b) (swrites p)) -> ssa ss' a = ssa ss a).
Proof.
  intros phi ss p phi' ss' p' H. remember (phi, ss, p) as c. remember (phi', ss', p') as c'.
  revert phi ss p phi' ss' p' Heqc Heqc'.
  induction H; intros phi0 ss0 p0 phi0' ss0' p0' E E';
    inversion E; inversion E'; subst; try (split; reflexivity).
  - split; [|reflexivity]. intros y Hy. simpl.
    destruct (String.eqb_spec x y) as [->|Hne]; [|reflexivity].
    exfalso. apply Hy. left. reflexivity.
  - split; [reflexivity|]. intros b Hb. simpl.
    destruct (String.eqb_spec a b) as [->|Hne]; [|reflexivity].
    exfalso. apply Hb. left. reflexivity.
  - destruct (IHsym_step _ _ _ _ _ _ eq_refl eq_refl) as [H1 H2]. split.
    + intros y Hy. simpl in Hy. apply not_in_app in Hy. apply H1, Hy.
    + intros b Hb. simpl in Hb. rewrite map_app in Hb. apply not_in_app in Hb. apply H2, Hb.
Qed.

Lemma lookup_to_list_in : forall A (dflt : var -> A) d f x,
  In x d -> lookup dflt (to_list d f) x = f x.
Proof.
  intros A dflt d f x; induction d as [|y d IH]; intros H; [destruct H|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne]; [reflexivity|].
  apply IH. destruct H as [->|H]; [congruence|assumption].
Qed.

Lemma lookup_to_list_notin : forall A (dflt : var -> A) d f x,
  ~ In x d -> lookup dflt (to_list d f) x = dflt x.
Proof.
  intros A dflt d f x; induction d as [|y d IH]; intros H; [reflexivity|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne].
  - exfalso. apply H. left. reflexivity.
  - apply IH. intros H'. apply H. right. assumption.
Qed.

Lemma lookup_notin_keys : forall A (dflt : var -> A) l x,
  ~ In x (map fst l) -> lookup dflt l x = dflt x.
Proof.
  intros A dflt l x; induction l as [|[y v] l IH]; intros H; [reflexivity|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne].
  - exfalso. apply H. left. reflexivity.
  - apply IH. intros H'. apply H. right. assumption.
Qed.

(** Printing a function on [dom]/[adom] and reading it back gives the function back,
    provided it agrees with the input list outside the listed names. *)
Lemma to_list_exact_gen : forall A (dflt : var -> A) (l : list (var * A)) (names : list var) (f : var -> A),
  (forall x, ~ In x names -> f x = lookup dflt l x) ->
  forall x, lookup dflt (to_list (nodup string_dec (map fst l ++ names)) f) x = f x.
Proof.
  intros A dflt l names f Hf x.
  destruct (in_dec string_dec x (nodup string_dec (map fst l ++ names))) as [Hin|Hout].
  - apply lookup_to_list_in. assumption.
  - rewrite lookup_to_list_notin by assumption.
    rewrite nodup_In in Hout. apply not_in_app in Hout. destruct Hout as [H1 H2].
    rewrite Hf by assumption. rewrite lookup_notin_keys by assumption. reflexivity.
Qed.

Lemma to_list_exact : forall A (dflt : var -> A) (l : list (var * A)) p (f : var -> A),
  (forall x, ~ In x (svars p) -> f x = lookup dflt l x) ->
  forall x, lookup dflt (to_list (dom l p) f) x = f x.
Proof. intros. apply to_list_exact_gen. assumption. Qed.

Lemma nth_zrange : forall lo hi j, in_range lo hi j = true ->
  forall f : Z -> Z, nth (Z.to_nat (j - lo)) (map f (zrange lo hi)) 0%Z = f j.
Proof.
  intros lo hi j H f. unfold in_range in H. apply andb_true_iff in H.
  destruct H as [H1 H2]. apply Z.leb_le in H1. apply Z.leb_le in H2.
  unfold zrange. rewrite map_map.
  rewrite nth_indep with (d' := f (lo + Z.of_nat 0)%Z).
  2:{ rewrite map_length, seq_length. lia. }
  rewrite (map_nth (fun x : nat => f (lo + Z.of_nat x)%Z)). rewrite seq_nth by lia.
  f_equal. lia.
Qed.

Lemma lookup_arrays_of : forall d s a lo hi,
  lookup_decl d a = Some (lo, hi) ->
  lookup (fun _ => []) (arrays_of d s) a = map (sa s a) (zrange lo hi).
Proof.
  intros d s a lo hi; induction d as [|[[b lo'] hi'] d IH]; simpl; intros H; [discriminate|].
  destruct (String.eqb_spec b a) as [->|Hne].
  - inversion H; subst. reflexivity.
  - apply IH, H.
Qed.

(** The program writes each array within its declaration (true of every program the
    driver builds: it writes the declaration's bounds on every node). *)
Definition writes_declared (d : decls) (p : stmt) : Prop :=
  forall a lo hi, In (a, lo, hi) (swrites p) -> lookup_decl d a = Some (lo, hi).

Lemma arrays_exact : forall d l la p s',
  writes_declared d p ->
  (forall a j, (forall lo hi, In (a, lo, hi) (swrites p) -> in_range lo hi j = false) ->
               sa s' a j = sa (store_of_lists d l la) a j) ->
  forall a j, sa (store_of_lists d l (arrays_of d s')) a j = sa s' a j.
Proof.
  intros d l la p s' Hw Hfr a j. simpl.
  destruct (lookup_decl d a) as [[lo hi]|] eqn:Ed.
  - destruct (in_range lo hi j) eqn:R.
    + rewrite (lookup_arrays_of d s' a lo hi Ed). apply nth_zrange. exact R.
    + rewrite Hfr; [simpl; rewrite Ed, R; reflexivity|].
      intros lo' hi' Hin. rewrite (Hw _ _ _ Hin) in Ed. inversion Ed; subst. exact R.
  - rewrite Hfr; [simpl; rewrite Ed; reflexivity|].
    intros lo' hi' Hin. rewrite (Hw _ _ _ Hin) in Ed. discriminate.
Qed.

(** ** The entry points are exact *)

Theorem ref_step_next_sound : forall d l la p l' la' p',
  writes_declared d p ->
  ref_step d l la p = RNext l' la' p' ->
  exists s', step (store_of_lists d l la, p) (s', p') /\ store_eq (store_of_lists d l' la') s'.
Proof.
  intros d l la p l' la' p' Hw H. unfold ref_step in H.
  destruct (cstep (store_of_lists d l la) p) as [s' p''| | |] eqn:E; inversion H; subst.
  apply cstep_sound in E. exists s'. split; [assumption|]. split.
  - intros x. simpl. apply to_list_exact.
    intros y Hy. apply (step_frame _ _ _ _ E y Hy).
  - apply (arrays_exact d l la p s' Hw).
    intros a j Hj. apply (step_frame_arr _ _ _ _ E a j Hj).
Qed.

Theorem ref_step_next_complete : forall d l la p s' p',
  writes_declared d p ->
  step (store_of_lists d l la, p) (s', p') ->
  exists l' la', ref_step d l la p = RNext l' la' p' /\ store_eq (store_of_lists d l' la') s'.
Proof.
  intros d l la p s' p' Hw H. exists (to_list (dom l p) (sv s')), (arrays_of d s').
  unfold ref_step. rewrite (cstep_complete _ _ _ _ H). split; [reflexivity|]. split.
  - intros x. simpl. apply to_list_exact.
    intros y Hy. apply (step_frame _ _ _ _ H y Hy).
  - apply (arrays_exact d l la p s' Hw).
    intros a j Hj. apply (step_frame_arr _ _ _ _ H a j Hj).
Qed.

Theorem ref_step_final : forall d l la p, ref_step d l la p = RFinal <-> p = Skip.
Proof.
  intros d l la p. rewrite <- (cstep_final (store_of_lists d l la)). unfold ref_step.
  destruct (cstep (store_of_lists d l la) p); split; congruence.
Qed.

Lemma error_kind_is_error : forall p, is_error p = true <-> exists k, error_kind p = Some k.
Proof.
  intros p. unfold is_error, error_kind. destruct (head p); split; intros H;
    try discriminate; eauto; destruct H; discriminate.
Qed.

(** An error state is reported with its kind. *)
Theorem ref_step_error : forall d l la p k,
  ref_step d l la p = RError k <-> is_error p = true /\ error_kind p = Some k.
Proof.
  intros d l la p k. rewrite <- (cstep_error (store_of_lists d l la)). unfold ref_step.
  destruct (cstep (store_of_lists d l la) p) eqn:E; split; intros H; try discriminate;
    try (destruct H; discriminate).
  - inversion H; subst. split; [reflexivity|].
    apply (cstep_error (store_of_lists d l la)), error_kind_is_error in E.
    destruct E as [k' Hk]. rewrite Hk. reflexivity.
  - destruct H as [_ H]. rewrite H. reflexivity.
Qed.

Theorem ref_step_stuck : forall d l la p,
  ref_step d l la p = RStuck <-> exists b, head p = Assume b /\ ref_beval d l la b = Ok false.
Proof.
  intros d l la p. unfold ref_beval. rewrite <- cstep_stuck. unfold ref_step.
  destruct (cstep (store_of_lists d l la) p); split; congruence.
Qed.

Lemma sstore_exact : forall l la p ss',
  (forall x, ~ In x (svars p) -> ssv ss' x = ssv (sstore_of_lists l la) x) ->
  (forall a, ~ In a (map (fun '(b, _, _) => b) (swrites p)) -> ssa ss' a = ssa (sstore_of_lists l la) a) ->
  (forall x, ssv (sstore_of_lists (to_list (dom l p) (ssv ss')) (to_list (adom la p) (ssa ss'))) x = ssv ss' x) /\
  (forall a, ssa (sstore_of_lists (to_list (dom l p) (ssv ss')) (to_list (adom la p) (ssa ss'))) a = ssa ss' a).
Proof.
  intros l la p ss' H1 H2. split.
  - intros x. simpl. apply to_list_exact. exact H1.
  - intros a. simpl. unfold adom. apply to_list_exact_gen. exact H2.
Qed.

Theorem ref_expand_sound : forall phi l la p phi' l' la' p',
  In (phi', l', la', p') (ref_expand phi l la p) ->
  exists ss', sym_step (phi, sstore_of_lists l la, p) (phi', ss', p') /\
              (forall x, ssv (sstore_of_lists l' la') x = ssv ss' x) /\
              (forall a, ssa (sstore_of_lists l' la') a = ssa ss' a).
Proof.
  intros phi l la p phi' l' la' p' H. unfold ref_expand in H.
  apply in_map_iff in H. destruct H as [[[phi'' ss'] p''] [E H]]. inversion E; subst.
  apply expand_sound in H. exists ss'. split; [assumption|].
  destruct (sym_step_frame _ _ _ _ _ _ H) as [F1 F2].
  apply sstore_exact; assumption.
Qed.

Theorem ref_expand_complete : forall phi l la p phi' ss' p',
  sym_step (phi, sstore_of_lists l la, p) (phi', ss', p') ->
  exists l' la', In (phi', l', la', p') (ref_expand phi l la p) /\
             (forall x, ssv (sstore_of_lists l' la') x = ssv ss' x) /\
             (forall a, ssa (sstore_of_lists l' la') a = ssa ss' a).
Proof.
  intros phi l la p phi' ss' p' H.
  exists (to_list (dom l p) (ssv ss')), (to_list (adom la p) (ssa ss')). split.
  - unfold ref_expand. apply in_map_iff. exists (phi', ss', p').
    split; [reflexivity|]. apply expand_complete. assumption.
  - destruct (sym_step_frame _ _ _ _ _ _ H) as [F1 F2].
    apply sstore_exact; assumption.
Qed.
