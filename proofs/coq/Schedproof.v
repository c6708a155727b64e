(** * Fair schedulers ([Sched.v]): the scheduled queue, Lemma 3.1 and Theorems 3.2-3.4
    for every fair scheduler, with and without pruning, Theorems 3.5-3.8 for the bug
    finders over the scheduled stream; BFS and the shipped discipline [kpick K h] are
    fair (with a bound), DFS is not; with [bfs_pick] the streams are those of [Run.v],
    [Prune.v] and [Engine.v]. *)

From Coq Require Import List Arith Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder Prune Pruneproof Engine Engineproof Sched.
Import ListNotations.

(** ** Lists *)

Lemma remove_at_in : forall A i (l : list A) x, In x (remove_at i l) -> In x l.
Proof.
  intros A i l; revert i; induction l as [|a l IH]; intros [|i] x H; simpl in *;
    [exact H|exact H|right; exact H|].
  destruct H as [H|H]; [left; exact H|right; exact (IH i x H)].
Qed.

Lemma nth_remove_lt : forall A i j (l : list A),
  j < i -> nth_error (remove_at i l) j = nth_error l j.
Proof.
  intros A i j l; revert i j; induction l as [|a l IH]; intros [|i] [|j] H; simpl;
    try reflexivity; try lia.
  apply IH. lia.
Qed.

Lemma nth_remove_ge : forall A i j (l : list A),
  i <= j -> nth_error (remove_at i l) j = nth_error l (S j).
Proof.
  intros A i j l; revert i j; induction l as [|a l IH]; intros [|i] [|j] H; simpl;
    try reflexivity; try lia.
  apply IH. lia.
Qed.

Lemma nth_app_some : forall A (l l' : list A) n x,
  nth_error l n = Some x -> nth_error (l ++ l') n = Some x.
Proof.
  intros A l l' n x H. rewrite nth_error_app1; [exact H|].
  apply nth_error_Some. rewrite H. discriminate.
Qed.

Lemma sel_lt : forall A i (l : list A), l <> [] -> sel i l < length l.
Proof.
  intros A i l H. unfold sel. destruct (i <? length l) eqn:E.
  - apply Nat.ltb_lt. exact E.
  - destruct l as [|a l]; [congruence|]. simpl. lia.
Qed.

Lemma nth_sel : forall A i (l : list A), l <> [] -> exists t, nth_error l (sel i l) = Some t.
Proof.
  intros A i l H. destruct (nth_error l (sel i l)) as [t|] eqn:E; [exists t; reflexivity|].
  exfalso. apply nth_error_None in E. pose proof (sel_lt A i l H). lia.
Qed.

Lemma sel_0 : forall A (l : list A), sel 0 l = 0.
Proof. intros A l. unfold sel. destruct (0 <? length l); reflexivity. Qed.

(** ** The scheduled queue *)

Lemma squeue_S : forall A pick (succ : nat -> A -> list A) n l,
  squeue pick succ (S n) l =
  sstep (succ n) (pick n (squeue pick succ n l)) (squeue pick succ n l).
Proof. reflexivity. Qed.

Lemma sstep_nil : forall A (s : A -> list A) i, sstep s i [] = [].
Proof. reflexivity. Qed.

Lemma squeue_nil_after : forall A pick (succ : nat -> A -> list A) l n d,
  squeue pick succ n l = [] -> squeue pick succ (n + d) l = [].
Proof.
  intros A pick succ l n d H. induction d as [|d IH]; [rewrite Nat.add_0_r; exact H|].
  rewrite Nat.add_succ_r, squeue_S, IH. reflexivity.
Qed.

Lemma snth_none : forall A pick (succ : nat -> A -> list A) l n,
  snth pick succ l n = None <-> squeue pick succ n l = [].
Proof.
  intros A pick succ l n. unfold snth. split.
  - intros H. destruct (squeue pick succ n l) as [|a q] eqn:E; [reflexivity|].
    destruct (nth_sel A (pick n (a :: q)) (a :: q)) as [t Ht]; [discriminate|]. congruence.
  - intros H. rewrite H. reflexivity.
Qed.

Lemma snth_in : forall A pick (succ : nat -> A -> list A) l n t,
  snth pick succ l n = Some t -> In t (squeue pick succ n l).
Proof. intros A pick succ l n t H. exact (nth_error_In _ _ H). Qed.

(** The element picked at iteration [m] has its successors [succ m t] appended. *)
Lemma snth_step : forall A pick (succ : nat -> A -> list A) l m t,
  snth pick succ l m = Some t ->
  exists rest, squeue pick succ (S m) l = rest ++ succ m t.
Proof.
  intros A pick succ l m t H. unfold snth in H. rewrite squeue_S. unfold sstep. rewrite H.
  eexists. reflexivity.
Qed.

(** Theorem 3.3 for the generic stream: after the first [None], only [None]. *)
Lemma snth_done : forall A pick (succ : nat -> A -> list A) l n,
  snth pick succ l n = None -> forall m, n <= m -> snth pick succ l m = None.
Proof.
  intros A pick succ l n H m Hm. apply snth_none. apply snth_none in H.
  replace m with (n + (m - n)) by lia. apply squeue_nil_after. exact H.
Qed.

(** Generic soundness: every pending element is reachable from the initial list. *)
Lemma squeue_sound : forall A (R : A -> A -> Prop) pick (succ : nat -> A -> list A),
  (forall i x y, In y (succ i x) -> R x y) ->
  forall n l t, In t (squeue pick succ n l) -> exists t0, In t0 l /\ star R t0 t.
Proof.
  intros A R pick succ Hs n; induction n as [|n IH]; intros l t H.
  - exists t. split; [exact H|constructor].
  - rewrite squeue_S in H. unfold sstep in H.
    destruct (nth_error _ _) as [u|] eqn:Hu; [|destruct H].
    apply in_app_or in H. destruct H as [H|H].
    + exact (IH l t (remove_at_in _ _ _ _ H)).
    + destruct (IH l u (nth_error_In _ _ Hu)) as (t0 & H1 & H2).
      exists t0. split; [exact H1|]. apply (star_trans _ _ _ u); [exact H2|].
      apply star_one. exact (Hs n u t H).
Qed.

Lemma snth_sound : forall A (R : A -> A -> Prop) pick (succ : nat -> A -> list A),
  (forall i x y, In y (succ i x) -> R x y) ->
  forall n l t, snth pick succ l n = Some t -> exists t0, In t0 l /\ star R t0 t.
Proof.
  intros A R pick succ Hs n l t H. exact (squeue_sound A R pick succ Hs n l t (snth_in _ _ _ _ _ _ H)).
Qed.

(** Generic completeness under a fair scheduler: everything reachable, through a relation
    that every [succ i] contains, from a pending element is eventually picked. *)
Lemma squeue_complete : forall A (R : A -> A -> Prop) pick (succ : nat -> A -> list A),
  fair pick -> (forall i x y, R x y -> In y (succ i x)) ->
  forall t0 t, star R t0 t ->
  forall l n, In t0 (squeue pick succ n l) -> exists m, n <= m /\ snth pick succ l m = Some t.
Proof.
  intros A R pick succ Hf Hc t0 t H. induction H as [a|a b c Hab Hbc IH]; intros l n Hin.
  - exact (Hf succ n l a Hin).
  - destruct (Hf succ n l a Hin) as (m & H1 & H2).
    destruct (snth_step A pick succ l m a H2) as [rest H3].
    assert (In b (squeue pick succ (S m) l)) as Hb.
    { rewrite H3. apply in_or_app. right. apply Hc. exact Hab. }
    destruct (IH l (S m) Hb) as (k & H4 & H5). exists k. split; [lia|exact H5].
Qed.

(** Lemma 3.1 for the generic stream (fair scheduler): a picked element is followed,
    later in the stream, by everything reachable from it. *)
Lemma snth_successors : forall A (R : A -> A -> Prop) pick (succ : nat -> A -> list A),
  fair pick -> (forall i x y, R x y -> In y (succ i x)) ->
  forall t t', star R t t' -> forall l n, snth pick succ l n = Some t ->
  exists m, n <= m /\ snth pick succ l m = Some t'.
Proof.
  intros A R pick succ Hf Hc t t' H l n Hn.
  exact (squeue_complete A R pick succ Hf Hc t t' H l n (snth_in _ _ _ _ _ _ Hn)).
Qed.

(** Lemma 3.1 for one step, as the issue states it: with a fair scheduler, every
    successor kept for a picked element is picked at a later iteration. *)
Theorem sched_successors : forall A pick (succ : nat -> A -> list A) l n t t',
  fair pick -> snth pick succ l n = Some t -> In t' (succ n t) ->
  exists m, n < m /\ snth pick succ l m = Some t'.
Proof.
  intros A pick succ l n t t' Hf Hn Ht.
  destruct (snth_step A pick succ l n t Hn) as [rest H].
  assert (In t' (squeue pick succ (S n) l)) as Hin by (rewrite H; apply in_or_app; right; exact Ht).
  destruct (Hf succ (S n) l t' Hin) as (m & H1 & H2). exists m. split; [lia|exact H2].
Qed.

(** ** Bounded fairness *)

Theorem fair_within_fair : forall A (pick : nat -> list A -> nat) bound,
  fair_within pick bound -> fair pick.
Proof.
  intros A pick bound H succ n l t Hin. apply In_nth_error in Hin. destruct Hin as [j Hj].
  destruct (H succ n l j t Hj) as (m & H1 & H2). exists m. split; [lia|exact H2].
Qed.

(** One iteration, following one pending element: it is picked, or it stays pending with
    no more older elements than before, and with fewer if the oldest was picked. *)
Lemma sstep_track : forall A (s : A -> list A) i q j t,
  nth_error q j = Some t ->
  (sel i q = j /\ nth_error q (sel i q) = Some t) \/
  exists j', j' <= j /\ (sel i q = 0 -> j' < j) /\ nth_error (sstep s i q) j' = Some t.
Proof.
  intros A s i q j t H.
  assert (q <> []) as Hq by (intros ->; destruct j; discriminate).
  destruct (nth_sel A i q Hq) as [u Hu]. unfold sstep. rewrite Hu.
  destruct (Nat.lt_trichotomy (sel i q) j) as [Hlt|[Heq|Hgt]].
  - right. exists (pred j). split; [lia|]. split; [lia|].
    apply nth_app_some. rewrite nth_remove_ge by lia.
    replace (S (pred j)) with j by lia. exact H.
  - left. split; [exact Heq|]. rewrite <- Heq in H. congruence.
  - right. exists j. split; [lia|]. split; [lia|].
    apply nth_app_some. rewrite nth_remove_lt by lia. exact H.
Qed.

(** [d] iterations, following one pending element, for any scheduler. *)
Lemma squeue_track : forall A pick (succ : nat -> A -> list A) l d n j t,
  nth_error (squeue pick succ n l) j = Some t ->
  (exists m, n <= m < n + d /\ snth pick succ l m = Some t) \/
  exists j', j' <= j /\ nth_error (squeue pick succ (n + d) l) j' = Some t.
Proof.
  intros A pick succ l d; induction d as [|d IH]; intros n j t H.
  - right. exists j. rewrite Nat.add_0_r. split; [lia|exact H].
  - destruct (IH n j t H) as [(m & H1 & H2)|(j1 & H1 & H2)].
    + left. exists m. split; [lia|exact H2].
    + rewrite Nat.add_succ_r, squeue_S.
      destruct (sstep_track A (succ (n + d)) (pick (n + d) (squeue pick succ (n + d) l)) _ j1 t H2)
        as [(_ & H3)|(j2 & H3 & _ & H4)].
      * left. exists (n + d). split; [lia|exact H3].
      * right. exists j2. split; [lia|exact H4].
Qed.

Lemma mod_window : forall K n, 0 < K -> n <= n + (pred K - n mod K) < n + K /\
  (n + (pred K - n mod K)) mod K = pred K.
Proof.
  intros K n HK. assert (K <> 0) as HK' by lia.
  pose proof (Nat.mod_upper_bound n K HK') as Hr.
  split; [lia|].
  pose proof (Nat.div_mod n K HK') as Hd.
  replace (n + (pred K - n mod K)) with (pred K + n / K * K) by lia.
  rewrite Nat.mod_add by exact HK'. apply Nat.mod_small. lia.
Qed.

(** Within any [K] iterations of [kpick K h], a pending element is picked or loses at
    least one older element. *)
Lemma kpick_block : forall A K (h : nat -> list A -> nat) (succ : nat -> A -> list A) l n j t,
  0 < K -> nth_error (squeue (kpick K h) succ n l) j = Some t ->
  (exists m, n <= m < n + K /\ snth (kpick K h) succ l m = Some t) \/
  exists j', j' < j /\ nth_error (squeue (kpick K h) succ (n + K) l) j' = Some t.
Proof.
  intros A K h succ l n j t HK H.
  destruct (mod_window K n HK) as [Hw Hm0]. set (m0 := n + (pred K - n mod K)) in *.
  destruct (squeue_track A (kpick K h) succ l (m0 - n) n j t H)
    as [(m & H1 & H2)|(j1 & H1 & H2)].
  - left. exists m. split; [lia|exact H2].
  - replace (n + (m0 - n)) with m0 in H2 by lia.
    assert (kpick K h m0 (squeue (kpick K h) succ m0 l) = 0) as Hp.
    { unfold kpick. rewrite Hm0, Nat.eqb_refl. reflexivity. }
    destruct (sstep_track A (succ m0) (kpick K h m0 (squeue (kpick K h) succ m0 l)) _ j1 t H2)
      as [(_ & H3)|(j2 & H3 & H4 & H5)].
    + left. exists m0. split; [lia|exact H3].
    + rewrite Hp, sel_0 in H4. specialize (H4 eq_refl).
      rewrite <- squeue_S in H5.
      destruct (squeue_track A (kpick K h) succ l (n + K - S m0) (S m0) j2 t H5)
        as [(m & H6 & H7)|(j3 & H6 & H7)].
      * left. exists m. split; [lia|exact H7].
      * right. exists j3. split; [lia|]. replace (n + K) with (S m0 + (n + K - S m0)) by lia.
        exact H7.
Qed.

(** The shipped discipline is fair, with a bound, for every [K >= 1] and every heuristic
    [h]: an element with [j] older pending elements is picked within [K * (j + 1)]
    iterations. *)
Theorem kpick_fair_within : forall A K (h : nat -> list A -> nat),
  0 < K -> fair_within (kpick K h) (fun j => K * S j).
Proof.
  intros A K h HK succ n l j. revert n.
  induction j as [j IH] using lt_wf_ind. intros n t H.
  destruct (kpick_block A K h succ l n j t HK H) as [(m & H1 & H2)|(j' & H1 & H2)].
  - exists m. split; [|exact H2]. nia.
  - destruct (IH j' H1 (n + K) t H2) as (m & H3 & H4). exists m. split; [|exact H4]. nia.
Qed.

Theorem kpick_fair : forall A K (h : nat -> list A -> nat), 0 < K -> fair (kpick K h).
Proof. intros A K h HK. exact (fair_within_fair A _ _ (kpick_fair_within A K h HK)). Qed.

(** Schedulers that agree give the same queue and stream. *)
Lemma squeue_ext : forall A (p1 p2 : nat -> list A -> nat) succ,
  (forall n q, p1 n q = p2 n q) -> forall n l, squeue p1 succ n l = squeue p2 succ n l.
Proof.
  intros A p1 p2 succ He n l. induction n as [|n IH]; [reflexivity|].
  rewrite !squeue_S, IH, He. reflexivity.
Qed.

Lemma snth_ext : forall A (p1 p2 : nat -> list A -> nat) succ,
  (forall n q, p1 n q = p2 n q) -> forall l n, snth p1 succ l n = snth p2 succ l n.
Proof.
  intros A p1 p2 succ He l n. unfold snth. rewrite (squeue_ext A p1 p2 succ He), He. reflexivity.
Qed.

(** BFS is [kpick 1 h], for any [h]. *)
Lemma kpick_1 : forall A (h : nat -> list A -> nat) n q, kpick 1 h n q = bfs_pick n q.
Proof. intros A h n q. unfold kpick, bfs_pick. rewrite Nat.mod_1_r. reflexivity. Qed.

(** BFS is fair: the element of index [j] is picked within [j + 1] iterations. *)
Theorem bfs_fair_within : forall A, fair_within (@bfs_pick A) S.
Proof.
  intros A succ n l j t H.
  rewrite <- (squeue_ext A (kpick 1 (fun _ _ => 0)) bfs_pick succ (kpick_1 A _)) in H.
  destruct (kpick_fair_within A 1 (fun _ _ => 0) ltac:(lia) succ n l j t H) as (m & H1 & H2).
  exists m. split; [lia|].
  rewrite <- (snth_ext A (kpick 1 (fun _ _ => 0)) bfs_pick succ (kpick_1 A _)). exact H2.
Qed.

Theorem bfs_pick_fair : forall A, fair (@bfs_pick A).
Proof. intros A. exact (fair_within_fair A _ _ (bfs_fair_within A)). Qed.

(** ** BFS is the search of [Run.v] and [Prune.v] *)

Lemma sstep_0 : forall A (s : A -> list A) q, sstep s 0 q = bfs_step s q.
Proof. intros A s [|a q]; reflexivity. Qed.

Lemma squeue_bfs : forall A (succ : nat -> A -> list A) n l,
  squeue bfs_pick succ n l = tqueue succ n l.
Proof.
  intros A succ n l. induction n as [|n IH]; [reflexivity|].
  rewrite squeue_S, tqueue_S_r, IH. apply sstep_0.
Qed.

Lemma snth_bfs : forall A (succ : nat -> A -> list A) l n,
  snth bfs_pick succ l n = tnth succ l n.
Proof.
  intros A succ l n. unfold snth, tnth. rewrite squeue_bfs.
  destruct (tqueue succ n l); reflexivity.
Qed.

(** ** DFS is not fair *)

(** The counterexample: elements are numbers, [x] has the one successor [x + 1], and the
    initial list is [[0; 1]]. DFS picks [1], [2], [3], ... and [0] stays pending. *)
Definition dfs_succ : nat -> nat -> list nat := fun _ x => [S x].

Lemma dfs_queue : forall n, squeue dfs_pick dfs_succ n [0; 1] = [0; S n].
Proof. intros n. induction n as [|n IH]; [reflexivity|]. rewrite squeue_S, IH. reflexivity. Qed.

(** DFS starves an element: [0] is pending at every iteration and never picked. *)
Theorem dfs_starves : forall n,
  In 0 (squeue dfs_pick dfs_succ n [0; 1]) /\ snth dfs_pick dfs_succ [0; 1] n <> Some 0.
Proof.
  intros n. unfold snth. rewrite dfs_queue. split; [left; reflexivity|]. simpl. discriminate.
Qed.

Theorem dfs_unfair : ~ fair (@dfs_pick nat).
Proof.
  intros H. destruct (H dfs_succ 0 [0; 1] 0 (or_introl eq_refl)) as (m & _ & Hm).
  exact (proj2 (dfs_starves m) Hm).
Qed.
