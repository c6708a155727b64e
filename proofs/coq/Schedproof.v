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

(** A finished run needs no fairness: if the list is empty at iteration [n], every element
    pending at an iteration [k <= n] was picked in between, whatever the scheduler. *)
Lemma squeue_finished_picked : forall A pick (succ : nat -> A -> list A) l n k t,
  squeue pick succ n l = [] -> k <= n -> In t (squeue pick succ k l) ->
  exists m, k <= m < n /\ snth pick succ l m = Some t.
Proof.
  intros A pick succ l n k t Hn Hk Hin. apply In_nth_error in Hin. destruct Hin as [j Hj].
  destruct (squeue_track A pick succ l (n - k) k j t Hj) as [(m & H1 & H2)|(j' & _ & H)].
  - exists m. split; [lia|exact H2].
  - replace (k + (n - k)) with n in H by lia. rewrite Hn in H. destruct j'; discriminate.
Qed.

(** Generic completeness of a finished run, any scheduler: everything reachable from a
    pending element was picked before the list became empty. *)
Lemma squeue_complete_finished : forall A (R : A -> A -> Prop) pick (succ : nat -> A -> list A),
  (forall i x y, R x y -> In y (succ i x)) ->
  forall l n, squeue pick succ n l = [] ->
  forall t0 t, star R t0 t ->
  forall k, k <= n -> In t0 (squeue pick succ k l) ->
  exists m, k <= m < n /\ snth pick succ l m = Some t.
Proof.
  intros A R pick succ Hc l n Hn t0 t H. induction H as [a|a b c Hab Hbc IH]; intros k Hk Hin.
  - exact (squeue_finished_picked A pick succ l n k a Hn Hk Hin).
  - destruct (squeue_finished_picked A pick succ l n k a Hn Hk Hin) as (m & H1 & H2).
    destruct (snth_step A pick succ l m a H2) as [rest H3].
    assert (In b (squeue pick succ (S m) l)) as Hb.
    { rewrite H3. apply in_or_app. right. apply Hc. exact Hab. }
    destruct (IH (S m) ltac:(lia) Hb) as (k' & H4 & H5). exists k'. split; [lia|exact H5].
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

Lemma squeue_succ_ext : forall A pick (s1 s2 : nat -> A -> list A),
  (forall i x, s1 i x = s2 i x) -> forall n l, squeue pick s1 n l = squeue pick s2 n l.
Proof.
  intros A pick s1 s2 He n l. induction n as [|n IH]; [reflexivity|].
  rewrite !squeue_S, IH. unfold sstep. destruct (nth_error _ _); [|reflexivity].
  rewrite He. reflexivity.
Qed.

Lemma snth_succ_ext : forall A pick (s1 s2 : nat -> A -> list A),
  (forall i x, s1 i x = s2 i x) -> forall l n, snth pick s1 l n = snth pick s2 l n.
Proof.
  intros A pick s1 s2 He l n. unfold snth. rewrite (squeue_succ_ext A pick s1 s2 He). reflexivity.
Qed.

(** ** The scheduled symbolic search without pruning: Lemma 3.1, Theorems 3.2-3.4 *)

(** With [bfs_pick], the scheduled stream is [Run.run]. *)
Theorem srun_bfs : forall l n, srun bfs_pick l n = run l n.
Proof.
  intros l n. unfold srun, run, bfs_nth. rewrite snth_bfs. unfold tnth.
  rewrite tqueue_const. reflexivity.
Qed.

(** Theorem 3.2 (relative soundness), any scheduler: every state of the stream is
    reachable from the initial queue. *)
Theorem srun_sound : forall pick l n t,
  srun pick l n = Some t -> exists t0, In t0 l /\ sym_steps t0 t.
Proof.
  intros pick l n t H.
  exact (snth_sound _ sym_step pick (fun _ => expand_state)
           (fun i x y Hy => proj1 (expand_state_correct x y) Hy) n l t H).
Qed.

(** Theorem 3.3 (sound termination), any scheduler. *)
Theorem srun_sound_termination : forall pick l n,
  srun pick l n = None -> forall m, n <= m -> srun pick l m = None.
Proof. intros pick l n H m Hm. exact (snth_done _ pick _ l n H m Hm). Qed.

(** Lemma 3.1 (reachability of successors), fair scheduler: a state of the stream is
    followed, later in the stream, by every state reachable from it. *)
Theorem srun_successors : forall pick t t',
  fair pick -> sym_steps t t' -> forall l n, srun pick l n = Some t ->
  exists m, n <= m /\ srun pick l m = Some t'.
Proof.
  intros pick t t' Hf H l n Hn.
  exact (snth_successors _ sym_step pick (fun _ => expand_state) Hf
           (fun i x y Hxy => proj2 (expand_state_correct x y) Hxy) t t' H l n Hn).
Qed.

(** Theorem 3.4 (relative completeness), fair scheduler: every state reachable from the
    initial queue appears in the stream. *)
Theorem srun_complete : forall pick l t0 t,
  fair pick -> In t0 l -> sym_steps t0 t -> exists n, srun pick l n = Some t.
Proof.
  intros pick l t0 t Hf Hin H.
  destruct (squeue_complete _ sym_step pick (fun _ => expand_state) Hf
              (fun i x y Hxy => proj2 (expand_state_correct x y) Hxy) t0 t H l 0 Hin)
    as (m & _ & Hm).
  exists m. exact Hm.
Qed.

(** ... and, for ANY scheduler (DFS included), a stream that ends has shown every
    reachable state before its end. *)
Theorem srun_finished_explored : forall pick l n,
  srun pick l n = None ->
  forall t0 t, In t0 l -> sym_steps t0 t -> exists m, m < n /\ srun pick l m = Some t.
Proof.
  intros pick l n Hn t0 t Hin H. apply snth_none in Hn.
  destruct (squeue_complete_finished _ sym_step pick (fun _ => expand_state)
              (fun i x y Hxy => proj2 (expand_state_correct x y) Hxy) l n Hn t0 t H 0
              ltac:(lia) Hin) as (m & H1 & H2).
  exists m. split; [lia|exact H2].
Qed.

(** ** The scheduled symbolic search with pruning: Lemma 3.1, Theorems 3.2-3.4 *)

(** With [bfs_pick], the scheduled pruned stream is [Prune.prun]. *)
Theorem sprun_bfs : forall ask l n, sprun bfs_pick ask l n = prun ask l n.
Proof. intros ask l n. unfold sprun, prun. apply snth_bfs. Qed.

(** Pruning with the oracle that never answers is no pruning. *)
Theorem sprun_never : forall pick l n, sprun pick (fun _ => never) l n = srun pick l n.
Proof.
  intros pick l n. unfold sprun, srun. apply snth_succ_ext. intros i x. apply psucc_never.
Qed.

(** Theorem 3.2 with pruning, any scheduler, any oracle. *)
Theorem sprun_sound : forall pick ask l n t,
  sprun pick ask l n = Some t -> exists t0, In t0 l /\ sym_steps t0 t.
Proof.
  intros pick ask l n t H.
  exact (snth_sound _ sym_step pick (fun i => psucc (ask i))
           (fun i x y Hy => proj1 (proj1 (psucc_correct (ask i) x y) Hy)) n l t H).
Qed.

(** Theorem 3.3 with pruning, any scheduler, any oracle. *)
Theorem sprun_sound_termination : forall pick ask l n,
  sprun pick ask l n = None -> forall m, n <= m -> sprun pick ask l m = None.
Proof. intros pick ask l n H m Hm. exact (snth_done _ pick _ l n H m Hm). Qed.

(** Lemma 3.1 with pruning, fair scheduler: through states that every oracle of the
    family keeps. *)
Theorem sprun_successors : forall pick ask t t',
  fair pick -> star (pstep_all ask) t t' -> forall l n, sprun pick ask l n = Some t ->
  exists m, n <= m /\ sprun pick ask l m = Some t'.
Proof.
  intros pick ask t t' Hf H l n Hn.
  exact (snth_successors _ (pstep_all ask) pick (fun i => psucc (ask i)) Hf
           (fun i x y Hxy => proj2 (psucc_correct (ask i) x y) (conj (proj1 Hxy) (proj2 Hxy i)))
           t t' H l n Hn).
Qed.

Theorem sprun_complete_kept : forall pick ask l t0 t,
  fair pick -> In t0 l -> star (pstep_all ask) t0 t -> exists n, sprun pick ask l n = Some t.
Proof.
  intros pick ask l t0 t Hf Hin H.
  destruct (squeue_complete _ (pstep_all ask) pick (fun i => psucc (ask i)) Hf
              (fun i x y Hxy => proj2 (psucc_correct (ask i) x y)
                                  (conj (proj1 Hxy) (proj2 Hxy i))) t0 t H l 0 Hin)
    as (m & _ & Hm).
  exists m. exact Hm.
Qed.

(** Theorem 3.4 with pruning, fair scheduler, sound oracle: every reachable state whose
    path condition is satisfiable appears in the stream. *)
Theorem sprun_complete : forall pick ask l t0 t,
  fair pick -> (forall i, oracle_sound (ask i)) -> In t0 l -> sym_steps t0 t ->
  (exists V, sat V (pc t)) -> exists n, sprun pick ask l n = Some t.
Proof.
  intros pick ask l t0 t Hf Ho Hin H [V HV].
  exact (sprun_complete_kept pick ask l t0 t Hf Hin (sym_steps_pstep ask V t0 t Ho H HV)).
Qed.

(** With pruning, any scheduler, sound oracle: a stream that ends has shown every
    reachable state with a satisfiable path condition before its end. *)
Theorem sprun_finished_explored : forall pick ask l n,
  (forall i, oracle_sound (ask i)) -> sprun pick ask l n = None ->
  forall t0 t, In t0 l -> sym_steps t0 t -> (exists V, sat V (pc t)) ->
  exists m, m < n /\ sprun pick ask l m = Some t.
Proof.
  intros pick ask l n Ho Hn t0 t Hin H [V HV]. apply snth_none in Hn.
  destruct (squeue_complete_finished _ (pstep_all ask) pick (fun i => psucc (ask i))
              (fun i x y Hxy => proj2 (psucc_correct (ask i) x y)
                                  (conj (proj1 Hxy) (proj2 Hxy i))) l n Hn t0 t
              (sym_steps_pstep ask V t0 t Ho H HV) 0 ltac:(lia) Hin) as (m & H1 & H2).
  exists m. split; [lia|exact H2].
Qed.

(** ** Theorems 3.5-3.7 for the paper's bug finder over the scheduled stream *)

Theorem sfind_bugs_bfs : forall ask p n, sfind_bugs bfs_pick ask p n = pfind_bugs ask p n.
Proof. intros ask p n. unfold sfind_bugs, pfind_bugs. rewrite sprun_bfs. reflexivity. Qed.

Lemma sfind_bugs_bug : forall pick ask p n t,
  sfind_bugs pick ask p n = BugFound t ->
  sprun pick ask (init p) n = Some t /\ is_error (prog t) = true /\ ask n (pc t) <> Some false.
Proof.
  intros pick ask p n t H. unfold sfind_bugs, classify in H.
  destruct (sprun pick ask (init p) n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; inversion H; subst; repeat split; congruence.
Qed.

Lemma sfind_bugs_finished : forall pick ask p n,
  sfind_bugs pick ask p n = Finished <-> sprun pick ask (init p) n = None.
Proof.
  intros pick ask p n. unfold sfind_bugs, classify.
  destruct (sprun pick ask (init p) n) as [t|]; [|split; reflexivity].
  split; [|discriminate].
  destruct (is_error (prog t)); [destruct (ask n (pc t)) as [[|]|]|]; discriminate.
Qed.

(** Theorem 3.5 (relatively sound bug discovery), any scheduler, any oracle. *)
Theorem sfind_bugs_relative_soundness : forall pick ask p n t,
  sfind_bugs pick ask p n = BugFound t -> potential_bug p t /\ ValidBug p t.
Proof.
  intros pick ask p n t H. destruct (sfind_bugs_bug pick ask p n t H) as (H1 & H2 & _).
  destruct (sprun_sound _ _ _ _ _ H1) as (t0 & [<-|[]] & H3).
  assert (potential_bug p t) as Hp by (split; assumption).
  split; [exact Hp|]. apply potential_bug_valid. exact Hp.
Qed.

(** Theorem 3.6 (relatively complete bug discovery), fair scheduler, sound oracle. *)
Theorem sfind_bugs_relative_completeness : forall pick ask p c,
  fair pick -> (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n t, sfind_bugs pick ask p n = BugFound t /\ Concrete t c.
Proof.
  intros pick ask p c Hf Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as Hs.
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (sprun_complete pick ask (init p) (sym_init p) t Hf Ho (or_introl eq_refl) Hr Hs)
    as [n Hn].
  exists n, t. split; [|exact Hc].
  unfold sfind_bugs, classify. rewrite Hn, He.
  destruct Hs as [V HV]. pose proof (keep_sat (ask n) t V (Ho n) HV) as Hk. unfold keep in Hk.
  destruct (ask n (pc t)) as [[|]|]; congruence.
Qed.

(** Theorem 3.7 (sound termination of the bug finder), any scheduler, any oracle. *)
Theorem sfind_bugs_sound_termination : forall pick ask p n,
  sfind_bugs pick ask p n = Finished -> forall m, n <= m -> sfind_bugs pick ask p m = Finished.
Proof.
  intros pick ask p n H m Hm. apply sfind_bugs_finished. apply sfind_bugs_finished in H.
  exact (sprun_sound_termination _ _ _ n H m Hm).
Qed.

(** Any scheduler (DFS included), sound oracle: [Finished] without any [BugFound]
    before it means that the program has no bug. *)
Theorem sfind_bugs_finished_no_bug : forall pick ask p n,
  (forall i, oracle_sound (ask i)) -> sfind_bugs pick ask p n = Finished ->
  (forall m t, m < n -> sfind_bugs pick ask p m <> BugFound t) -> ~ has_bug p.
Proof.
  intros pick ask p n Ho Hn Hnone [c Hc]. apply sfind_bugs_finished in Hn.
  apply is_bug_iff in Hc. destruct Hc as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as [V HV].
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (sprun_finished_explored pick ask (init p) n Ho Hn (sym_init p) t (or_introl eq_refl)
              Hr (ex_intro _ V HV)) as (m & Hm & Ht).
  apply (Hnone m t Hm). unfold sfind_bugs, classify. rewrite Ht, He.
  pose proof (keep_sat (ask m) t V (Ho m) HV) as Hk. unfold keep in Hk.
  destruct (ask m (pc t)) as [[|]|]; congruence.
Qed.

(** ** The engine's bug finder ([Engine.gfind]) over the scheduled stream: Theorems
    3.5-3.8, per-error reporting, the verdict.  The statements are those of
    [Engineproof.v] with the scheduler [pick] as an argument and, where completeness is
    used, its fairness as a premise; the proofs are those of [Engineproof.v]. *)

Lemma sgrun_sound : forall pick m ask p n t, sgrun pick m ask p n = Some t -> sym_steps (sym_init p) t.
Proof.
  intros pick m ask p n t H. destruct (sprun_sound _ _ _ _ _ H) as (t0 & [<-|[]] & H1). exact H1.
Qed.

Lemma sgrun_complete : forall pick m ask p t,
  fair pick -> (forall i, oracle_sound (ask i)) -> sym_steps (sym_init p) t -> (exists V, sat V (pc t)) ->
  exists n, sgrun pick m ask p n = Some t.
Proof.
  intros pick m ask p t Hfair Ho H Hs.
  exact (sprun_complete pick _ (init p) (sym_init p) t Hfair
           (fun i => prune_oracle_sound m (ask i) (Ho i)) (or_introl eq_refl) H Hs).
Qed.

(** Any scheduler: a run that ends has shown every reachable state with a satisfiable
    path condition before its end. *)
Lemma sgrun_complete_finished : forall pick m ask p n t,
  (forall i, oracle_sound (ask i)) -> sgrun pick m ask p n = None ->
  sym_steps (sym_init p) t -> (exists V, sat V (pc t)) ->
  exists k, k < n /\ sgrun pick m ask p k = Some t.
Proof.
  intros pick m ask p n t Ho Hn H Hs.
  exact (sprun_finished_explored pick _ (init p) n (fun i => prune_oracle_sound m (ask i) (Ho i))
           Hn (sym_init p) t (or_introl eq_refl) H Hs).
Qed.

Lemma sgrun_done : forall pick m ask p n, sgrun pick m ask p n = None ->
  forall k, n <= k -> sgrun pick m ask p k = None.
Proof. intros pick m ask p n H k Hk. exact (sprun_sound_termination _ _ _ n H k Hk). Qed.

(** ** Classification *)

Lemma sgfind_finished : forall pick E m ask p n, sgfind pick E m ask p n = GFinished <-> sgrun pick m ask p n = None.
Proof.
  intros pick E m ask p n. unfold sgfind, gclassify.
  destruct (sgrun pick m ask p n) as [t|]; [|split; reflexivity]. split; [|discriminate].
  destruct (is_error (prog t)); [|discriminate].
  destruct (in_dec _ _ _); [discriminate|]. destruct (ask n (pc t)) as [[|]|]; discriminate.
Qed.

Lemma sgfind_bug : forall pick E m ask p n t, sgfind pick E m ask p n = GBugFound t ->
  sgrun pick m ask p n = Some t /\ is_error (prog t) = true /\ ask n (pc t) = Some true /\
  ~ In (key E n t) (sseen pick E m ask p n).
Proof.
  intros pick E m ask p n t. unfold sgfind, gclassify.
  destruct (sgrun pick m ask p n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma sgfind_unknown : forall pick E m ask p n t, sgfind pick E m ask p n = GUnknown t ->
  sgrun pick m ask p n = Some t /\ is_error (prog t) = true /\ ask n (pc t) = None.
Proof.
  intros pick E m ask p n t. unfold sgfind, gclassify.
  destruct (sgrun pick m ask p n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

(** An error state of the run stream is reported, recorded undecided, refuted by the
    oracle, or its error was already reported. *)
Lemma sgfind_error_state : forall pick E m ask p n t,
  sgrun pick m ask p n = Some t -> is_error (prog t) = true ->
  sgfind pick E m ask p n = GBugFound t \/ sgfind pick E m ask p n = GUnknown t \/
  ask n (pc t) = Some false \/ In (key E n t) (sseen pick E m ask p n).
Proof.
  intros pick E m ask p n t Hr He. unfold sgfind, gclassify. rewrite Hr, He.
  destruct (in_dec _ _ _) as [Hi|Hi]; [auto|].
  destruct (ask n (pc t)) as [[|]|]; auto.
Qed.

Lemma sseen_S : forall pick E m ask p n,
  sseen pick E m ask p (S n) =
  match sgfind pick E m ask p n with
  | GBugFound t => if all_bugs m then key E n t :: sseen pick E m ask p n else sseen pick E m ask p n
  | _ => sseen pick E m ask p n
  end.
Proof. reflexivity. Qed.

Lemma sseen_incl : forall pick E m ask p n k, In k (sseen pick E m ask p n) -> In k (sseen pick E m ask p (S n)).
Proof.
  intros pick E m ask p n k H. rewrite sseen_S.
  destruct (sgfind pick E m ask p n); try exact H. destruct (all_bugs m); [right|]; exact H.
Qed.

(** The keys seen before [n] are exactly those of the bugs reported before [n], and only
    with [--all-bugs]. *)
Lemma sseen_spec : forall pick E m ask p n k,
  In k (sseen pick E m ask p n) <->
  all_bugs m = true /\ exists j t, j < n /\ sgfind pick E m ask p j = GBugFound t /\ key E j t = k.
Proof.
  intros pick E m ask p n; induction n as [|n IH]; intros k.
  - simpl. split; [intros []|]. intros (_ & j & t & Hj & _). lia.
  - split.
    + rewrite sseen_S. intros H.
      destruct (sgfind pick E m ask p n) eqn:Hg;
        try (apply IH in H; destruct H as (Ha & j & t' & Hj & H1 & H2);
             split; [exact Ha|exists j, t'; split; [lia|auto]]).
      destruct (all_bugs m) eqn:Ha.
      * destruct H as [<-|H].
        -- split; [reflexivity|]. exists n, t. auto.
        -- apply IH in H. destruct H as (_ & j & t' & Hj & H1 & H2).
           split; [reflexivity|]. exists j, t'. split; [lia|auto].
      * apply IH in H. destruct H as (Ha' & _). discriminate.
    + intros (Ha & j & t & Hj & H1 & H2).
      destruct (Nat.eq_dec j n) as [->|Hne].
      * rewrite sseen_S, H1, Ha. left. exact H2.
      * apply sseen_incl. apply IH. split; [exact Ha|]. exists j, t. split; [lia|auto].
Qed.

(** ** Theorems 3.5-3.7 for the engine's stream *)

(** Theorem 3.5 (relatively sound bug discovery), for the engine and any oracle: every
    [BugFound t] is a potential bug whose concretizations are all bugs, and the oracle
    answered "satisfiable" about it. *)
Theorem sgfind_relative_soundness : forall pick E m ask p n t,
  sgfind pick E m ask p n = GBugFound t ->
  potential_bug p t /\ ValidBug p t /\ ask n (pc t) = Some true.
Proof.
  intros pick E m ask p n t H. destruct (sgfind_bug pick E m ask p n t H) as (H1 & H2 & H3 & _).
  pose proof (sgrun_sound pick m ask p n t H1) as Hr.
  assert (potential_bug p t) as Hp by (split; assumption).
  split; [exact Hp|]. split; [apply potential_bug_valid; exact Hp|exact H3].
Qed.

(** With a sound oracle, every [BugFound t] has a satisfiable path condition, all its
    concretizations are bugs, and it has at least one: a real bug of [p]. *)
Theorem sgfind_bug_sat : forall pick E m ask p n t,
  (forall i, oracle_sound (ask i)) -> sgfind pick E m ask p n = GBugFound t ->
  (exists V, sat V (pc t)) /\ (forall c, Concrete t c -> IsBug p c) /\
  exists c, Concrete t c /\ IsBug p c.
Proof.
  intros pick E m ask p n t Ho H. destruct (Ho n) as [Ht _].
  destruct (sgfind_relative_soundness pick E m ask p n t H) as (_ & Hv & Ha).
  destruct (Ht _ Ha) as [V HV].
  split; [exists V; exact HV|]. split; [exact Hv|].
  destruct t as [[phi ss] q]. exists (compose V ss, q).
  assert (Concrete (phi, ss, q) (compose V ss, q)) as Hc.
  { exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity. }
  split; [exact Hc|apply Hv; exact Hc].
Qed.

(** Every error state recorded undecided (the cause of an [unknown] verdict) is a
    potential bug all of whose concretizations are bugs; only the satisfiability of its
    path condition is open. *)
Theorem sgfind_unknown_valid : forall pick E m ask p n t,
  sgfind pick E m ask p n = GUnknown t -> potential_bug p t /\ ValidBug p t.
Proof.
  intros pick E m ask p n t H. destruct (sgfind_unknown pick E m ask p n t H) as (H1 & H2 & _).
  assert (potential_bug p t) as Hp by (split; [exact (sgrun_sound pick m ask p n t H1)|exact H2]).
  split; [exact Hp|apply potential_bug_valid; exact Hp].
Qed.

(** Theorem 3.7 (sound termination of the bug finder), for the engine. *)
Theorem sgfind_sound_termination : forall pick E m ask p n,
  sgfind pick E m ask p n = GFinished -> forall k, n <= k -> sgfind pick E m ask p k = GFinished.
Proof.
  intros pick E m ask p n H k Hk. apply sgfind_finished. apply sgfind_finished in H.
  exact (sgrun_done pick m ask p n H k Hk).
Qed.

(** Theorem 3.6 (relatively complete bug discovery), for the engine and a sound oracle:
    every concrete bug is a concretization of a reachable error state [t] that appears
    in the stream, where it is reported, or recorded undecided, or its error was
    already reported earlier (only with [--all-bugs]). *)
Theorem sgfind_relative_completeness : forall pick E m ask p c,
  fair pick -> (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n t, Concrete t c /\ potential_bug p t /\ sgrun pick m ask p n = Some t /\
    (sgfind pick E m ask p n = GBugFound t \/ sgfind pick E m ask p n = GUnknown t \/
     (all_bugs m = true /\
      exists j t', j < n /\ sgfind pick E m ask p j = GBugFound t' /\ key E j t' = key E n t)).
Proof.
  intros pick E m ask p c Hfair Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as [V HV].
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (sgrun_complete pick m ask p t Hfair Ho Hr (ex_intro _ V HV)) as [n Hn].
  exists n, t. split; [exact Hc|]. split; [split; assumption|]. split; [exact Hn|].
  destruct (sgfind_error_state pick E m ask p n t Hn He) as [H|[H|[H|H]]]; auto.
  - exfalso. exact (proj2 (Ho n) _ H V HV).
  - right; right. apply sseen_spec in H. exact H.
Qed.

(** ** Per-error reporting ([--all-bugs]) and deciding oracles *)

(** With an oracle that decides, the error of every reachable error state with a
    satisfiable path condition is reported (in every mode): the state appears at some
    position [k] of the run stream, and a bug with the same key is reported at a position
    [n <= k] (at [k] itself, the state itself, when its error was not reported before). *)
Theorem sgfind_every_error_reported : forall pick E m ask p t,
  fair pick -> (forall i, oracle_decides (ask i)) -> potential_bug p t -> (exists V, sat V (pc t)) ->
  exists k n t', sgrun pick m ask p k = Some t /\ n <= k /\
    sgfind pick E m ask p n = GBugFound t' /\ key E n t' = key E k t.
Proof.
  intros pick E m ask p t Hfair HD [Hr He] [V HV].
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (sgrun_complete pick m ask p t Hfair Ho Hr (ex_intro _ V HV)) as [k Hk].
  exists k.
  destruct (sgfind_error_state pick E m ask p k t Hk He) as [H|[H|[H|H]]].
  - exists k, t. auto.
  - exfalso. destruct (sgfind_unknown pick E m ask p k t H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - exfalso. exact (proj2 (Ho k) _ H V HV).
  - apply sseen_spec in H. destruct H as (_ & j & t' & Hj & H1 & H2).
    exists j, t'. repeat split; [exact Hk|lia|exact H1|exact H2].
Qed.

(** Per-error completeness for concrete bugs: with an oracle that decides, every concrete
    bug is a concretization of a reachable error state of the stream whose error is
    reported. *)
Corollary sgfind_every_bug_error_reported : forall pick E m ask p c,
  fair pick -> (forall i, oracle_decides (ask i)) -> IsBug p c ->
  exists t k n t', Concrete t c /\ potential_bug p t /\ sgrun pick m ask p k = Some t /\ n <= k /\
    sgfind pick E m ask p n = GBugFound t' /\ key E n t' = key E k t.
Proof.
  intros pick E m ask p c Hfair Hd Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & Hp & Hc).
  assert (exists V, sat V (pc t)) as Hs.
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (sgfind_every_error_reported pick E m ask p t Hfair Hd Hp Hs) as (k & n & t' & H0 & H1 & H2 & H3).
  exists t, k, n, t'. split; [exact Hc|]. split; [exact Hp|]. auto.
Qed.

(** Without [--all-bugs] and with an oracle that decides, every concrete bug is a
    concretization of a state the stream reports. *)
Theorem sgfind_complete_first : forall pick E m ask p c,
  fair pick -> (forall i, oracle_decides (ask i)) -> all_bugs m = false -> IsBug p c ->
  exists n t, sgfind pick E m ask p n = GBugFound t /\ Concrete t c.
Proof.
  intros pick E m ask p c Hfair HD Hm Hbug.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (sgfind_relative_completeness pick E m ask p c Hfair Ho Hbug)
    as (n & t & Hc & _ & Hn & [H|[H|[H _]]]).
  - exists n, t. auto.
  - exfalso. destruct (sgfind_unknown pick E m ask p n t H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - congruence.
Qed.

(** With [--all-bugs], each error is reported at most once. *)
Theorem sgfind_report_once : forall pick E m ask p n n' t t',
  all_bugs m = true ->
  sgfind pick E m ask p n = GBugFound t -> sgfind pick E m ask p n' = GBugFound t' ->
  key E n t = key E n' t' -> n = n'.
Proof.
  assert (forall pick E m ask p n n' t t', all_bugs m = true -> n < n' ->
            sgfind pick E m ask p n = GBugFound t -> sgfind pick E m ask p n' = GBugFound t' ->
            key E n t = key E n' t' -> False) as G.
  { intros pick E m ask p n n' t t' Ha Hlt H H' Hk.
    destruct (sgfind_bug pick E m ask p n' t' H') as (_ & _ & _ & Hn). apply Hn.
    apply sseen_spec. split; [exact Ha|]. exists n, t. auto. }
  intros pick E m ask p n n' t t' Ha H H' Hk.
  destruct (Nat.lt_trichotomy n n') as [Hlt|[Heq|Hgt]]; [|exact Heq|].
  - exfalso. exact (G pick E m ask p n n' t t' Ha Hlt H H' Hk).
  - exfalso. exact (G pick E m ask p n' n t' t Ha Hgt H' H (eq_sym Hk)).
Qed.

(** ** The verdict *)

Lemma in_sgprefix : forall pick E m ask p n g,
  In g (sgprefix pick E m ask p n) <-> exists j, j < n /\ sgfind pick E m ask p j = g.
Proof.
  intros pick E m ask p n g. unfold sgprefix. rewrite in_map_iff. split.
  - intros (j & H1 & H2). apply in_seq in H2. exists j. split; [lia|exact H1].
  - intros (j & H1 & H2). exists j. split; [exact H2|]. apply in_seq. lia.
Qed.

Lemma existsb_sgprefix : forall pick E m ask p n f,
  existsb f (sgprefix pick E m ask p n) = true <-> exists j, j < n /\ f (sgfind pick E m ask p j) = true.
Proof.
  intros pick E m ask p n f. rewrite existsb_exists. split.
  - intros (g & H1 & H2). apply in_sgprefix in H1. destruct H1 as (j & Hj & <-). eauto.
  - intros (j & Hj & H). exists (sgfind pick E m ask p j). split; [|exact H].
    apply in_sgprefix. eauto.
Qed.

Lemma not_existsb_sgprefix : forall pick E m ask p n f,
  existsb f (sgprefix pick E m ask p n) = false -> forall j, j < n -> f (sgfind pick E m ask p j) = false.
Proof.
  intros pick E m ask p n f H j Hj. destruct (f (sgfind pick E m ask p j)) eqn:Hf; [|reflexivity].
  rewrite <- H. symmetry. apply existsb_sgprefix. eauto.
Qed.

(** A [bug] verdict means a bug, for any sound oracle. *)
Theorem sgverdict_bug : forall pick E m ask p n,
  (forall i, oracle_sound (ask i)) -> sgverdict pick E m ask p n = VBug -> has_bug p.
Proof.
  intros pick E m ask p n Ho H. apply verdict_bug_iff, existsb_sgprefix in H.
  destruct H as (j & _ & H). destruct (sgfind pick E m ask p j) as [| |t|] eqn:Hg; try discriminate.
  destruct (sgfind_bug_sat pick E m ask p j t Ho Hg) as (_ & _ & c & _ & Hc). exists c. exact Hc.
Qed.

(** A [safe] verdict (the stream reached [Finished], reported no bug and recorded no
    undecided error state) means no bug, for any sound oracle, in every mode. *)
Theorem sgverdict_safe : forall pick E m ask p n,
  (forall i, oracle_sound (ask i)) -> sgverdict pick E m ask p n = VSafe -> ~ has_bug p.
Proof.
  intros pick E m ask p n Ho H [c Hc]. apply verdict_safe_iff in H. destruct H as (Hb & Hu & Hf).
  apply existsb_sgprefix in Hf. destruct Hf as (f & Hfn & Hf).
  assert (sgfind pick E m ask p f = GFinished) as Hfin by (destruct (sgfind pick E m ask p f); simpl in Hf; congruence).
  apply sgfind_finished in Hfin.
  pose proof (not_existsb_sgprefix pick E m ask p n _ Hb) as Hb'.
  pose proof (not_existsb_sgprefix pick E m ask p n _ Hu) as Hu'.
  apply is_bug_iff in Hc. destruct Hc as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as [V HV].
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (sgrun_complete_finished pick m ask p f t Ho Hfin Hr (ex_intro _ V HV)) as (k & Hkf & Hk).
  destruct (sgfind_error_state pick E m ask p k t Hk He) as [H|[H|[H|H]]];
    [|
    |exfalso; exact (proj2 (Ho k) _ H V HV)
    |apply sseen_spec in H; destruct H as (_ & j & t' & Hj & H & _)].
  - specialize (Hb' k ltac:(lia)). rewrite H in Hb'. discriminate.
  - specialize (Hu' k ltac:(lia)). rewrite H in Hu'. discriminate.
  - specialize (Hb' j ltac:(lia)). rewrite H in Hb'. discriminate.
Qed.

(** With an oracle that decides, a program without bugs whose exploration ends gets the
    verdict [safe] once the prefix contains [Finished]. *)
Theorem sgverdict_safe_complete : forall pick E m ask p f n,
  (forall i, oracle_decides (ask i)) -> ~ has_bug p -> sgfind pick E m ask p f = GFinished -> f < n ->
  sgverdict pick E m ask p n = VSafe.
Proof.
  intros pick E m ask p f n HD Hno Hf Hfn.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd. apply verdict_safe_iff. split; [|split].
  - destruct (existsb is_bugfound (sgprefix pick E m ask p n)) eqn:H; [|reflexivity].
    exfalso. apply Hno. apply (sgverdict_bug pick E m ask p n Ho). apply verdict_bug_iff. exact H.
  - destruct (existsb is_unknown (sgprefix pick E m ask p n)) eqn:H; [|reflexivity].
    exfalso. apply existsb_sgprefix in H. destruct H as (j & _ & H).
    destruct (sgfind pick E m ask p j) as [|t| |] eqn:Hg; try discriminate.
    destruct (sgfind_unknown pick E m ask p j t Hg) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - apply existsb_sgprefix. exists f. rewrite Hf. auto.
Qed.

(** Once [bug], always [bug]. *)
Lemma sgverdict_bug_mono : forall pick E m ask p n k,
  sgverdict pick E m ask p n = VBug -> n <= k -> sgverdict pick E m ask p k = VBug.
Proof.
  intros pick E m ask p n k H Hk. apply verdict_bug_iff, existsb_sgprefix in H.
  apply verdict_bug_iff, existsb_sgprefix. destruct H as (j & Hj & H). exists j. split; [lia|exact H].
Qed.

(** Theorem 3.8 for the engine (T-soundness and T-completeness): with an oracle that
    decides, some prefix of the stream gets the verdict [bug] iff the program has a bug;
    in every mode. *)
Theorem sgverdict_T_sound_complete : forall pick E m ask p,
  fair pick -> (forall i, oracle_decides (ask i)) -> (exists n, sgverdict pick E m ask p n = VBug) <-> has_bug p.
Proof.
  intros pick E m ask p Hfair Hd. split.
  - intros [n H]. exact (sgverdict_bug pick E m ask p n (decides_sound ask Hd) H).
  - intros [c Hc].
    destruct (sgfind_every_bug_error_reported pick E m ask p c Hfair Hd Hc)
      as (t & k & n & t' & _ & _ & _ & _ & H & _).
    exists (S n). apply verdict_bug_iff, existsb_sgprefix. exists n. rewrite H. auto.
Qed.

(** Theorem 3.8 for the engine, as the issue words it: with an oracle that decides,
    there is an [n] at which the stream reports a bug with a satisfiable path condition
    iff the program has a bug. *)
Theorem sgfind_T_sound_complete : forall pick E m ask p,
  fair pick -> (forall i, oracle_decides (ask i)) ->
  (exists n t, sgfind pick E m ask p n = GBugFound t /\ exists V, sat V (pc t)) <-> has_bug p.
Proof.
  intros pick E m ask p Hfair Hd. split.
  - intros (n & t & H & _). destruct (sgfind_bug_sat pick E m ask p n t (decides_sound ask Hd) H) as (_ & _ & c & _ & Hc).
    exists c. exact Hc.
  - intros [c Hc].
    destruct (sgfind_every_bug_error_reported pick E m ask p c Hfair Hd Hc)
      as (t & k & n & t' & _ & _ & _ & _ & H & _).
    exists n, t'. split; [exact H|]. exact (proj1 (sgfind_bug_sat pick E m ask p n t' (decides_sound ask Hd) H)).
Qed.


Theorem sgverdict_unknown_decides : forall pick E m ask p n,
  (forall i, oracle_decides (ask i)) -> sgverdict pick E m ask p n = VUnknown ->
  forall j, j < n -> sgfind pick E m ask p j <> GFinished /\ forall t, sgfind pick E m ask p j <> GBugFound t.
Proof.
  intros pick E m ask p n HD H j Hj.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd. unfold sgverdict, verdict_of in H.
  destruct (existsb is_bugfound (sgprefix pick E m ask p n)) eqn:Hb; [discriminate|].
  assert (existsb is_unknown (sgprefix pick E m ask p n) = false) as Hu.
  { destruct (existsb is_unknown (sgprefix pick E m ask p n)) eqn:Hu; [|reflexivity].
    apply existsb_sgprefix in Hu. destruct Hu as (k & _ & Hk).
    destruct (sgfind pick E m ask p k) as [|t| |] eqn:Hg; try discriminate.
    destruct (sgfind_unknown pick E m ask p k t Hg) as (_ & _ & Ha). exfalso. exact (Hd _ _ Ha). }
  rewrite Hu in H. destruct (existsb is_finished (sgprefix pick E m ask p n)) eqn:Hf; [discriminate|].
  split.
  - intros Hg. pose proof (not_existsb_sgprefix pick E m ask p n _ Hf j Hj) as Hn.
    rewrite Hg in Hn. discriminate.
  - intros t Hg. pose proof (not_existsb_sgprefix pick E m ask p n _ Hb j Hj) as Hn.
    rewrite Hg in Hn. discriminate.
Qed.

(** ** With [bfs_pick], the engine's streams and verdict are those of [Engine.v] *)

Theorem sgrun_bfs : forall m ask p n, sgrun bfs_pick m ask p n = grun m ask p n.
Proof. intros m ask p n. unfold sgrun, grun. apply sprun_bfs. Qed.

Lemma sseen_gfind_bfs : forall E m ask p n,
  sseen bfs_pick E m ask p n = seen E m ask p n /\ sgfind bfs_pick E m ask p n = gfind E m ask p n.
Proof.
  intros E m ask p n.
  assert (forall n, sseen bfs_pick E m ask p n = seen E m ask p n ->
            sgfind bfs_pick E m ask p n = gfind E m ask p n) as G.
  { intros k Hk. unfold sgfind, gfind. rewrite Hk, sgrun_bfs. reflexivity. }
  induction n as [|n [IH1 IH2]]; [split; [reflexivity|apply G; reflexivity]|].
  assert (sseen bfs_pick E m ask p (S n) = seen E m ask p (S n)) as H.
  { rewrite sseen_S, seen_S, IH2, IH1. reflexivity. }
  split; [exact H|apply G; exact H].
Qed.

Theorem sgfind_bfs : forall E m ask p n, sgfind bfs_pick E m ask p n = gfind E m ask p n.
Proof. intros E m ask p n. exact (proj2 (sseen_gfind_bfs E m ask p n)). Qed.

Theorem sgverdict_bfs : forall E m ask p n,
  sgverdict bfs_pick E m ask p n = gverdict E m ask p n.
Proof.
  intros E m ask p n. unfold sgverdict, gverdict, sgprefix, gprefix. f_equal.
  apply map_ext. intros k. apply sgfind_bfs.
Qed.

(** ** The shipped strategies: every [K]-th pick the oldest ([K >= 1], any heuristic) *)

(** Go's [coverage] and [random-path] ([K = 4]): whatever the heuristic, a pending state
    with [j] older pending states is picked within [4 * (j + 1)] iterations. *)
Corollary kpick4_fair_within : forall (h : nat -> list sym_state -> nat),
  fair_within (kpick 4 h) (fun j => 4 * S j).
Proof. intros h. exact (kpick_fair_within _ 4 h ltac:(lia)). Qed.

(** Theorem 3.4 with pruning for [kpick K h]. *)
Corollary kpick_sprun_complete : forall K h ask l t0 t,
  0 < K -> (forall i, oracle_sound (ask i)) -> In t0 l -> sym_steps t0 t ->
  (exists V, sat V (pc t)) -> exists n, sprun (kpick K h) ask l n = Some t.
Proof.
  intros K h ask l t0 t HK. exact (sprun_complete (kpick K h) ask l t0 t (kpick_fair _ K h HK)).
Qed.

(** Theorem 3.8 for the engine under [kpick K h] (Go: [coverage] and [random-path],
    [K = 4]): with an oracle that decides, some prefix has the verdict [bug] iff the
    program has a bug, in every mode and for every heuristic. *)
Corollary kpick_sgverdict_T_sound_complete : forall K h E m ask p,
  0 < K -> (forall i, oracle_decides (ask i)) ->
  (exists n, sgverdict (kpick K h) E m ask p n = VBug) <-> has_bug p.
Proof.
  intros K h E m ask p HK.
  exact (sgverdict_T_sound_complete (kpick K h) E m ask p (kpick_fair _ K h HK)).
Qed.

(** ** DFS misses a bug of an IMP program *)

(** The pending states of DFS on [dfs_prog], after the first iteration: the error state
    first, then one of these tails (the states of the loop), whose path conditions, but
    for the last [skip] state's, hold for the input [V]. *)
Inductive dfs_tail (V : store) : list sym_state -> Prop :=
  | dfs_W : forall phi, sat V phi -> dfs_tail V [(phi, sid, dfs_loop)]
  | dfs_I : forall phi, sat V phi -> dfs_tail V [(phi, sid, If Btrue (Seq Skip dfs_loop) Skip)]
  | dfs_SK : forall phi phi', sat V phi ->
      dfs_tail V [(phi, sid, Seq Skip dfs_loop); (phi', sid, Skip)]
  | dfs_S : forall phi, sat V phi -> dfs_tail V [(phi, sid, Seq Skip dfs_loop)].

Lemma psucc_one : forall ask x y,
  expand_state x = [y] -> keep ask y = true -> psucc ask x = [y].
Proof. intros ask x y H Hk. unfold psucc. rewrite H. simpl. rewrite Hk. reflexivity. Qed.

Lemma psucc_two : forall ask x y z,
  expand_state x = [y; z] -> keep ask y = true ->
  psucc ask x = if keep ask z then [y; z] else [y].
Proof.
  intros ask x y z H Hk. unfold psucc. rewrite H. simpl. rewrite Hk.
  destruct (keep ask z); reflexivity.
Qed.

Lemma sat_band_true : forall V phi, sat V phi -> sat V (Band phi (Band (bD Btrue) Btrue)).
Proof. intros V phi H. unfold sat, bevalT in *. simpl. rewrite H. reflexivity. Qed.

Lemma dfs_prog_queue : forall ask, (forall i, oracle_sound (ask i)) ->
  forall n, exists r,
  squeue dfs_pick (fun i => psucc (ask i)) (S n) (init dfs_prog) = dfs_bug_state :: r /\
  dfs_tail dfs_V0 r.
Proof.
  intros ask Ho n. induction n as [|n (r & IH1 & IH2)].
  - set (phi0 := dfs_else_pc).
    pose proof dfs_else_sat as H0.
    assert (psucc (ask 0) (sym_init dfs_prog) = [dfs_bug_state; (phi0, sid, dfs_loop)]) as E.
    { rewrite (psucc_two (ask 0) _ dfs_bug_state (phi0, sid, dfs_loop)); [| reflexivity |].
      - rewrite (keep_sat (ask 0) (phi0, sid, dfs_loop) dfs_V0 (Ho 0) H0). reflexivity.
      - destruct dfs_bug_sat as [V HV]. exact (keep_sat (ask 0) _ V (Ho 0) HV). }
    exists [(phi0, sid, dfs_loop)]. split; [|constructor; exact H0].
    transitivity (psucc (ask 0) (sym_init dfs_prog)); [reflexivity|exact E].
  - rewrite squeue_S, IH1. destruct IH2 as [phi H|phi H|phi phi' H|phi H].
    + set (y := (phi, sid, If Btrue (Seq Skip dfs_loop) Skip)).
      exists [y]. split; [|constructor; exact H].
      change (dfs_bug_state :: psucc (ask (S n)) (phi, sid, dfs_loop) = [dfs_bug_state; y]).
      rewrite (psucc_one (ask (S n)) _ y); [reflexivity|reflexivity|].
      exact (keep_sat (ask (S n)) y dfs_V0 (Ho (S n)) H).
    + set (y := (Band phi (Band (bD Btrue) Btrue), sid, Seq Skip dfs_loop)).
      set (z := (Band phi (Band (bD Btrue) (Bnot Btrue)), sid, Skip)).
      change (exists r, dfs_bug_state :: psucc (ask (S n))
                (phi, sid, If Btrue (Seq Skip dfs_loop) Skip) = dfs_bug_state :: r /\
              dfs_tail dfs_V0 r).
      pose proof (sat_band_true dfs_V0 phi H) as Hy.
      rewrite (psucc_two (ask (S n)) _ y z); [|reflexivity|exact (keep_sat _ y _ (Ho (S n)) Hy)].
      destruct (keep (ask (S n)) z).
      * exists [y; z]. split; [reflexivity|]. constructor. exact Hy.
      * exists [y]. split; [reflexivity|]. constructor. exact Hy.
    + exists [(phi, sid, Seq Skip dfs_loop)]. split; [|constructor; exact H]. reflexivity.
    + set (y := (phi, sid, dfs_loop)).
      exists [y]. split; [|constructor; exact H].
      change (dfs_bug_state :: psucc (ask (S n)) (phi, sid, Seq Skip dfs_loop) = [dfs_bug_state; y]).
      rewrite (psucc_one (ask (S n)) _ y); [reflexivity|reflexivity|].
      exact (keep_sat (ask (S n)) y dfs_V0 (Ho (S n)) H).
Qed.

(** DFS, with pruning by any sound oracle or without pruning, never reaches the error
    state of [dfs_prog], which has a bug. *)
Theorem dfs_misses_bug : has_bug dfs_prog /\
  forall ask, (forall i, oracle_sound (ask i)) ->
  forall n t, sprun dfs_pick ask (init dfs_prog) n = Some t -> is_error (prog t) = false.
Proof.
  split.
  - apply has_bug_iff. exists dfs_bug_state. split; [|exact dfs_bug_sat].
    split; [|reflexivity]. apply star_one. apply E_IfTrue.
  - intros ask Ho [|n] t H.
    + unfold sprun, snth in H. simpl in H. inversion H. reflexivity.
    + unfold sprun, snth in H. destruct (dfs_prog_queue ask Ho n) as (r & H1 & H2).
      rewrite H1 in H. destruct H2 as [phi|phi|phi phi'|phi]; simpl in H; inversion H;
        reflexivity.
Qed.

(** Hence the engine under [dfs] never reports the bug of [dfs_prog], in every mode
    (with or without pruning, [--all-bugs] or not) and for every sound oracle, while every
    fair scheduler does ([sgfind_T_sound_complete]). *)
Corollary dfs_never_reports : forall E m ask n t,
  (forall i, oracle_sound (ask i)) -> sgfind dfs_pick E m ask dfs_prog n <> GBugFound t.
Proof.
  intros E m ask n t Ho H. destruct (sgfind_bug dfs_pick E m ask dfs_prog n t H) as (H1 & H2 & _).
  rewrite (proj2 dfs_misses_bug _ (fun i => prune_oracle_sound m (ask i) (Ho i)) n t H1) in H2.
  discriminate.
Qed.

(** ** The bounded-burst schedule (Go: [run --burst B], engine/burst.go) *)

(** Between two fairness iterations, a burst takes the newest pending state. *)
Lemma burst_pick_newest : forall A B (cont : nat -> list A -> bool) n q,
  n mod S B <> B -> cont n q = true -> burst_pick B cont n q = pred (length q).
Proof.
  intros A B cont n q Hn Hc. unfold burst_pick, kpick, burst_h. simpl pred.
  destruct (Nat.eqb_spec (n mod S B) B) as [E|_]; [contradiction|]. rewrite Hc. reflexivity.
Qed.

(** With no burst going on, the schedule is breadth-first. *)
Lemma burst_pick_off : forall A B n (q : list A),
  burst_pick B (fun _ _ => false) n q = bfs_pick n q.
Proof.
  intros A B n q. unfold burst_pick, kpick, burst_h, bfs_pick.
  destruct (Nat.eqb (n mod S B) (pred (S B))); reflexivity.
Qed.

(** The bounded-burst schedule is fair for every bound [B] and every [cont]: a pending
    state with [j] older pending states is picked within [(B + 1) * (j + 1)] iterations. *)
Corollary burst_fair_within : forall A B (cont : nat -> list A -> bool),
  fair_within (burst_pick B cont) (fun j => S B * S j).
Proof. intros A B cont. exact (kpick_fair_within A (S B) (burst_h cont) ltac:(lia)). Qed.

Corollary burst_fair : forall A B (cont : nat -> list A -> bool), fair (burst_pick B cont).
Proof. intros A B cont. exact (kpick_fair A (S B) (burst_h cont) ltac:(lia)). Qed.

(** Theorem 3.4 with pruning under the bounded-burst schedule. *)
Corollary burst_sprun_complete : forall B cont ask l t0 t,
  (forall i, oracle_sound (ask i)) -> In t0 l -> sym_steps t0 t ->
  (exists V, sat V (pc t)) -> exists n, sprun (burst_pick B cont) ask l n = Some t.
Proof.
  intros B cont ask l t0 t. exact (sprun_complete (burst_pick B cont) ask l t0 t (burst_fair _ B cont)).
Qed.

(** Theorem 3.6 (relative completeness) of the engine under the bounded-burst schedule. *)
Corollary burst_sgfind_relative_completeness : forall B cont E m ask p c,
  (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n t, Concrete t c /\ potential_bug p t /\ sgrun (burst_pick B cont) m ask p n = Some t /\
    (sgfind (burst_pick B cont) E m ask p n = GBugFound t \/ sgfind (burst_pick B cont) E m ask p n = GUnknown t \/
     (all_bugs m = true /\
      exists j t', j < n /\ sgfind (burst_pick B cont) E m ask p j = GBugFound t' /\ key E j t' = key E n t)).
Proof.
  intros B cont E m ask p c.
  exact (sgfind_relative_completeness (burst_pick B cont) E m ask p c (burst_fair _ B cont)).
Qed.

(** Theorem 3.8 of the engine under the bounded-burst schedule: with an oracle that
    decides, some prefix has the verdict [bug] iff the program has a bug, in every mode. *)
Corollary burst_sgverdict_T_sound_complete : forall B cont E m ask p,
  (forall i, oracle_decides (ask i)) ->
  (exists n, sgverdict (burst_pick B cont) E m ask p n = VBug) <-> has_bug p.
Proof.
  intros B cont E m ask p.
  exact (sgverdict_T_sound_complete (burst_pick B cont) E m ask p (burst_fair _ B cont)).
Qed.
