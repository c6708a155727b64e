(** * Correctness of the bug finder with state merging ([MergeSearch.v]): Lemma 3.1 and
    Theorems 3.2-3.8 for the breadth-first search that prunes and merges under any merge
    policy that merges in place groups with one continuation and reorders only within a
    depth ([policy_ok]).

    The argument is valuation by valuation.  The path conditions of the pending states are
    pairwise disjoint at every iteration ([mqueue_disjoint]): the successors of a state are
    pairwise disjoint and imply its path condition, and a merge's path condition is the
    disjunction of its group's.  So, under a valuation [V], at most one pending state has a
    path condition that holds, and a merge that takes it in reads, under [V], exactly its
    entries ([Mergeproof.merge_states_sel_unique]).  Soundness: every state of the stream
    stands, under each valuation satisfying its path condition, for a reachable symbolic
    state ([mqueue_reach]).  Completeness: the state that stands for a state [t] under [V]
    is eventually taken from the queue ([mtrack]), and its successors stand for [t]'s
    successors ([Mergeproof.mexpand_vequiv_congr]).  The pending list stays sorted by depth
    over two consecutive depths ([mqueue_layered]): a merge takes the place and the depth of
    its group's oldest state and the policy reorders only within a depth.  So each iteration
    takes a state of the least depth and adds deeper ones, and the policy never adds states
    of a depth; what stands for [t] has a depth no larger after a merge; the number of
    pending states shallower than it, then of its own depth, goes down until it is taken
    ([track_any], [track_min]). *)

From Coq Require Import List Bool Arith Lia Sorting.Permutation Sorting.Sorted.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder Prune Pruneproof Engine Engineproof
  Merge Mergeproof MergeSearch.
Import ListNotations.

(** ** The queue *)

Lemma mqueue_S : forall A pol (succ : nat -> A -> list A) n l,
  mqueue pol succ (S n) l = pol n (bfs_step (succ n) (mqueue pol succ n l)).
Proof. reflexivity. Qed.

Lemma merge_group_cons : forall same q q', merge_group same q q' -> q <> [].
Proof. intros same q q' (pre & x & post & J & R & m & -> & _). destruct pre; discriminate. Qed.

Lemma star_merge_nil : forall same q, star (merge_group same) [] q -> q = [].
Proof.
  intros same q H. remember [] as e eqn:E. destruct H as [a|a b c H _]; [reflexivity|].
  subst. exfalso. exact (merge_group_cons _ _ _ H eq_refl).
Qed.

(** The empty list stays empty. *)
Lemma mqueue_nil : forall pol (succ : nat -> mitem -> list mitem) l n,
  policy_ok pol -> mqueue pol succ n l = [] -> forall k, n <= k -> mqueue pol succ k l = [].
Proof.
  intros pol succ l n Hp H k Hk. induction Hk as [|k Hk IH]; [exact H|].
  rewrite mqueue_S, IH. destruct (Hp k []) as [q0 [Hs [HP _]]].
  rewrite (star_merge_nil _ _ Hs) in HP. apply Permutation_nil. exact HP.
Qed.

Lemma mnth_none : forall A pol (succ : nat -> A -> list A) l n,
  mnth pol succ l n = None <-> mqueue pol succ n l = [].
Proof.
  intros A pol succ l n. unfold mnth. destruct (mqueue pol succ n l); simpl; split; congruence.
Qed.

Lemma mnth_some : forall A pol (succ : nat -> A -> list A) l n x,
  mnth pol succ l n = Some x <-> exists rest, mqueue pol succ n l = x :: rest.
Proof.
  intros A pol succ l n x. unfold mnth. destruct (mqueue pol succ n l) as [|y rest]; simpl.
  - split; [discriminate|]. intros [r H]. discriminate.
  - split; [intros H; inversion H; subst; eauto|]. intros [r H]. inversion H. reflexivity.
Qed.

(** Theorem 3.3 for the queue: after the first [None], only [None]. *)
Lemma mnth_done : forall pol (succ : nat -> mitem -> list mitem) l n,
  policy_ok pol -> mnth pol succ l n = None -> forall k, n <= k -> mnth pol succ l k = None.
Proof.
  intros pol succ l n Hp H k Hk. apply mnth_none. apply mnth_none in H.
  exact (mqueue_nil pol succ l n Hp H k Hk).
Qed.

(** ** Merges in place *)

Lemma interleave_perm : forall A (J R l : list A), interleave J R l -> Permutation l (J ++ R).
Proof.
  intros A J R l H. induction H as [|x l1 l2 l H IH|x l1 l2 l H IH]; simpl.
  - constructor.
  - constructor. exact IH.
  - apply perm_trans with (x :: l1 ++ l2); [constructor; exact IH|apply Permutation_middle].
Qed.

Lemma merge_split_perm : forall A (pre : list A) x post J R,
  interleave J R post -> Permutation (pre ++ x :: post) ((x :: J) ++ (pre ++ R)).
Proof.
  intros A pre x post J R Hil.
  apply perm_trans with (x :: pre ++ post); [apply Permutation_sym, Permutation_middle|].
  simpl. constructor. apply perm_trans with (pre ++ J ++ R).
  - apply Permutation_app_head. apply interleave_perm. exact Hil.
  - apply Permutation_app_swap_app.
Qed.

(** A merge seen up to order: the group [x :: J] and the rest [Rest] before, the merge and
    the same rest after. *)
Lemma merge_group_perm : forall same q q', merge_group same q q' ->
  exists x J Rest m, Permutation q ((x :: J) ++ Rest) /\ Permutation q' ((idepth x, m) :: Rest) /\
    merge_states (map istate (x :: J)) = Some m.
Proof.
  intros same q q' (pre & x & post & J & R & m & -> & Hil & _ & Hm & ->).
  exists x, J, (pre ++ R), m. split; [exact (merge_split_perm _ pre x post J R Hil)|].
  split; [apply Permutation_sym, Permutation_middle|exact Hm].
Qed.

Local Notation idisj := (fun a b : mitem => mdisjoint (istate a) (istate b)).

Lemma idisj_sym : forall a b : mitem, idisj a b -> idisj b a.
Proof. intros a b H. apply mdisjoint_sym. exact H. Qed.

(** A merge keeps the pending path conditions pairwise disjoint. *)
Lemma merge_group_disjoint : forall same q q',
  merge_group same q q' -> ForallOrdPairs idisj q -> ForallOrdPairs idisj q'.
Proof.
  intros same q q' H Hd. destruct (merge_group_perm _ _ _ H) as (x & J & Rest & m & Hq & Hq' & Hm).
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym Hq) in Hd.
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym (Permutation_sym Hq')). constructor.
  - apply Forall_forall. intros r Hr V Hsm Hsr. simpl in Hsm.
    apply (merge_states_pc _ _ V Hm) in Hsm as [t [Ht Hst]].
    apply in_map_iff in Ht as [i [<- Hi]].
    exact (ForallOrdPairs_app_cross _ _ _ _ _ _ Hd Hi Hr V Hst Hsr).
  - exact (ForallOrdPairs_app_r _ _ _ _ Hd).
Qed.

(** A property of items that a merge inherits from its group holds after a merge. *)
Lemma merge_group_forall : forall (P : mitem -> Prop) same q q',
  (forall x J m, Forall P (x :: J) -> merge_states (map istate (x :: J)) = Some m -> P (idepth x, m)) ->
  merge_group same q q' -> Forall P q -> Forall P q'.
Proof.
  intros P same q q' HP H Hq. destruct (merge_group_perm _ _ _ H) as (x & J & Rest & m & E & E' & Hm).
  apply (Forall_perm _ _ _ _ E) in Hq. apply (Forall_perm _ _ _ _ (Permutation_sym E')).
  apply Forall_app in Hq as [H1 H2]. constructor; [exact (HP x J m H1 Hm)|exact H2].
Qed.

Lemma same_picks_refl : forall V m, same_picks V m m.
Proof. intros V m. split; [|split]; reflexivity. Qed.

Lemma same_picks_trans : forall V a b c, same_picks V a b -> same_picks V b c -> same_picks V a c.
Proof.
  intros V a b c [H1 [H2 H3]] [H4 [H5 H6]]. split; [|split].
  - intro x. rewrite H1. apply H4.
  - intro x. rewrite H2. apply H5.
  - congruence.
Qed.

(** The group of a merge has pairwise disjoint path conditions when the list has. *)
Lemma merge_group_group_disjoint : forall pre x post J R,
  ForallOrdPairs idisj (pre ++ x :: post) -> interleave J R post ->
  ForallOrdPairs mdisjoint (map istate (x :: J)).
Proof.
  intros pre x post J R Hd Hil.
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym (merge_split_perm _ pre x post J R Hil)) in Hd.
  apply ForallOrdPairs_app_l in Hd. apply ForallOrdPairs_map. exact Hd.
Qed.

(** The same through any number of merges. *)
Lemma star_merge_disjoint : forall same q q',
  star (merge_group same) q q' -> ForallOrdPairs idisj q -> ForallOrdPairs idisj q'.
Proof.
  intros same q q' H. induction H as [a|a b c Hab _ IH]; intro Hd; [exact Hd|].
  apply IH. exact (merge_group_disjoint _ _ _ Hab Hd).
Qed.

Lemma star_merge_forall : forall (P : mitem -> Prop) same q q',
  (forall x J m, Forall P (x :: J) -> merge_states (map istate (x :: J)) = Some m -> P (idepth x, m)) ->
  star (merge_group same) q q' -> Forall P q -> Forall P q'.
Proof.
  intros P same q q' HP H. induction H as [a|a b c Hab _ IH]; intro Hq; [exact Hq|].
  apply IH. exact (merge_group_forall P _ _ _ HP Hab Hq).
Qed.

(** ** The policies *)

Lemma merge_group_impl : forall (s1 s2 : mitem -> mitem -> Prop) q q',
  (forall x y, s1 x y -> s2 x y) -> merge_group s1 q q' -> merge_group s2 q q'.
Proof.
  intros s1 s2 q q' Hs (pre & x & post & J & R & m & H1 & H2 & H3 & H4 & H5).
  exists pre, x, post, J, R, m. repeat split; try assumption.
  eapply Forall_impl; [|exact H3]. exact (Hs x).
Qed.

Lemma star_impl : forall A (R1 R2 : A -> A -> Prop) a b,
  (forall x y, R1 x y -> R2 x y) -> star R1 a b -> star R2 a b.
Proof.
  intros A R1 R2 a b H Hs. induction Hs as [a|a b c Hab _ IH]; [constructor|].
  econstructor; [apply H; exact Hab|exact IH].
Qed.

(** A policy that merges only states of one depth is a policy of the theorems. *)
Theorem policy_one_depth_ok : forall pol, policy_one_depth pol -> policy_ok pol.
Proof.
  intros pol H n q. destruct (H n q) as [q0 [Hs Hp]]. exists q0. split; [|exact Hp].
  apply (star_impl _ merge_one_depth); [|exact Hs].
  intros x y. apply merge_group_impl. auto.
Qed.

Lemma depth_perm_refl : forall q, depth_perm q q.
Proof. intros q. split; reflexivity. Qed.

(** Never merging is a policy of the theorems. *)
Theorem no_merge_ok : policy_ok no_merge.
Proof. intros n q. exists q. split; [constructor|apply depth_perm_refl]. Qed.

Lemma merge_group_cons_lift : forall same a q q',
  merge_group same q q' -> merge_group same (a :: q) (a :: q').
Proof.
  intros same a q q' (pre & x & post & J & R & m & H1 & H2 & H3 & H4 & H5).
  exists (a :: pre), x, post, J, R, m. subst. repeat split; assumption.
Qed.

Lemma star_merge_cons_lift : forall same a q q',
  star (merge_group same) q q' -> star (merge_group same) (a :: q) (a :: q').
Proof.
  intros same a q q' H. induction H as [q|q1 q2 q3 H _ IH]; [constructor|].
  econstructor; [apply merge_group_cons_lift; exact H|exact IH].
Qed.

Lemma partition_interleave : forall A (f : A -> bool) l J R,
  partition f l = (J, R) -> interleave J R l /\ Forall (fun y => f y = true) J.
Proof.
  intros A f l. induction l as [|a l IH]; intros J R H.
  - simpl in H. inversion H; subst. split; constructor.
  - simpl in H. destruct (partition f l) as [J0 R0] eqn:E.
    destruct (IH J0 R0 eq_refl) as [H1 H2].
    destruct (f a) eqn:Ea; inversion H; subst.
    + split; [constructor; exact H1|constructor; assumption].
    + split; [constructor; exact H1|exact H2].
Qed.

Lemma merge_groups_fuel_one_depth : forall f q, star merge_one_depth q (merge_groups_fuel f q).
Proof.
  induction f as [|f IH]; intros q; [constructor|].
  destruct q as [|x rest]; [constructor|]. cbn [merge_groups_fuel].
  destruct (partition (same_group x) rest) as [J R] eqn:E.
  destruct (partition_interleave _ _ _ _ _ E) as [Hil HJ].
  destruct (merge_states (map istate (x :: J))) as [m|] eqn:Hm.
  - econstructor; [|apply star_merge_cons_lift; apply IH].
    exists [], x, rest, J, R, m. repeat split; try assumption.
    eapply Forall_impl; [|exact HJ]. intros y Hy. unfold same_group in Hy.
    apply andb_true_iff in Hy as [Hy _]. apply Nat.eqb_eq in Hy. exact Hy.
  - apply star_merge_cons_lift. apply IH.
Qed.

(** The policy of the reference merges only states of one depth. *)
Theorem level_policy_one_depth : policy_one_depth level_policy.
Proof.
  intros n q. unfold level_policy. destruct (one_depth q).
  - exists (merge_groups q). split; [apply merge_groups_fuel_one_depth|apply depth_perm_refl].
  - exists q. split; [constructor|apply depth_perm_refl].
Qed.

Corollary level_policy_ok : policy_ok level_policy.
Proof. apply policy_one_depth_ok. exact level_policy_one_depth. Qed.

(** ** The successors *)

Lemma in_msucc : forall ask x y, In y (msucc ask x) <->
  idepth y = S (idepth x) /\ In (istate y) (mexpand_state (istate x)) /\ mkeep ask (istate y) = true.
Proof.
  intros ask x [d m]. unfold msucc. rewrite in_map_iff. split.
  - intros (m' & E & H). inversion E; subst. apply filter_In in H. simpl. tauto.
  - intros (Hd & Hm & Hk). simpl in *. subst d. exists m. split; [reflexivity|].
    apply filter_In. auto.
Qed.

Lemma ForallOrdPairs_filter : forall A (R : A -> A -> Prop) (f : A -> bool) l,
  ForallOrdPairs R l -> ForallOrdPairs R (filter f l).
Proof.
  intros A R f l H. induction H as [|a l Hf _ IH]; simpl; [constructor|].
  destruct (f a); [|exact IH]. constructor; [|exact IH].
  rewrite Forall_forall in *. intros y Hy. apply filter_In in Hy. exact (Hf y (proj1 Hy)).
Qed.

Lemma msucc_disjoint : forall ask x, ForallOrdPairs idisj (msucc ask x).
Proof.
  intros ask x. unfold msucc. apply ForallOrdPairs_map. simpl.
  apply ForallOrdPairs_filter. apply mexpand_disjoint.
Qed.

Lemma msucc_pc : forall ask x y V, In y (msucc ask x) -> sat V (mpc (istate y)) -> sat V (mpc (istate x)).
Proof.
  intros ask x y V Hy Hs. apply in_msucc in Hy as (_ & Hy & _).
  exact (mexpand_state_pc _ _ V Hy Hs).
Qed.

Lemma mkeep_sat : forall ask m V, oracle_sound ask -> sat V (mpc m) -> mkeep ask m = true.
Proof.
  intros ask m V [_ Hf] Hs. unfold mkeep.
  destruct (ask (mpc m)) as [[|]|] eqn:Ha; try reflexivity.
  exfalso. exact (Hf _ Ha V Hs).
Qed.

(** One iteration before the merges keeps the pending path conditions pairwise disjoint. *)
Lemma bfs_step_disjoint : forall ask q,
  ForallOrdPairs idisj q -> ForallOrdPairs idisj (bfs_step (msucc ask) q).
Proof.
  intros ask [|a q] Hd; simpl; [constructor|].
  inversion Hd as [|a0 q0 Hf Hq]; subst. rewrite Forall_forall in Hf.
  apply ForallOrdPairs_app; [exact Hq|apply msucc_disjoint|].
  intros b c Hb Hc V Hsb Hsc. exact (Hf b Hb V (msucc_pc _ _ _ V Hc Hsc) Hsb).
Qed.

(** The pending path conditions are pairwise disjoint at every iteration, whatever the
    policy merged. *)
Theorem mqueue_disjoint : forall pol ask l n,
  policy_ok pol -> ForallOrdPairs idisj l ->
  ForallOrdPairs idisj (mqueue pol (fun k => msucc (ask k)) n l).
Proof.
  intros pol ask l n Hp Hl. induction n as [|n IH]; [exact Hl|].
  rewrite mqueue_S. destruct (Hp n (bfs_step (msucc (ask n)) (mqueue pol (fun k => msucc (ask k)) n l)))
    as [q0 [Hs [HP _]]].
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym HP).
  apply (star_merge_disjoint _ _ _ Hs). apply bfs_step_disjoint. exact IH.
Qed.

Lemma minit_disjoint : forall p, ForallOrdPairs idisj (minit p).
Proof. intros p. repeat constructor. Qed.

(** ** Soundness: every pending state stands for reachable states *)

(** Under every valuation that satisfies its path condition, the merged state stands for a
    state reachable from [⟨true, id, p⟩]. *)
Definition mreach (p : stmt) (i : mitem) : Prop :=
  forall V, sat V (mpc (istate i)) -> exists t, sym_steps (sym_init p) t /\ vequiv V (istate i) t.

Lemma mreach_merge : forall p x J m,
  Forall (mreach p) (x :: J) -> merge_states (map istate (x :: J)) = Some m -> mreach p (idepth x, m).
Proof.
  intros p x J m HF Hm V Hs. simpl in Hs |- *.
  destruct (merge_states_sel _ _ V Hm Hs) as [i [Hi [Hsi Hpi]]].
  apply in_map_iff in Hi as [y [<- Hy]]. rewrite Forall_forall in HF.
  destruct (HF y Hy V Hsi) as [t [Ht Hv]]. exists t. split; [exact Ht|].
  exact (vequiv_picks _ _ _ _ Hpi Hs Hsi Hv).
Qed.

Lemma mreach_succ : forall p ask x y, mreach p x -> In y (msucc ask x) -> mreach p y.
Proof.
  intros p ask x y Hx Hy V Hs.
  destruct (Hx V (msucc_pc _ _ _ V Hy Hs)) as [t [Ht Hv]].
  apply in_msucc in Hy as (_ & Hy & _).
  destruct (Forall2_In_l (mexpand_vequiv_congr _ _ _ Hv) Hy) as [t' [Ht' Hv']].
  exists t'. split; [|exact Hv'].
  apply (star_trans _ _ _ t); [exact Ht|]. apply star_one. apply expand_state_correct. exact Ht'.
Qed.

Lemma mreach_init : forall p, Forall (mreach p) (minit p).
Proof.
  intros p. constructor; [|constructor]. intros V _. exists (sym_init p).
  split; [constructor|exact (vequiv_lift V (sym_init p))].
Qed.

(** Every pending state, at every iteration, stands for reachable states. *)
Lemma mqueue_reach : forall pol ask p n,
  policy_ok pol -> Forall (mreach p) (mqueue pol (fun k => msucc (ask k)) n (minit p)).
Proof.
  intros pol ask p n Hp. induction n as [|n IH]; [apply mreach_init|].
  rewrite mqueue_S. destruct (Hp n (bfs_step (msucc (ask n)) (mqueue pol (fun k => msucc (ask k)) n (minit p))))
    as [q0 [Hs [HP _]]].
  apply (Forall_perm _ _ _ _ HP). apply (star_merge_forall _ _ _ _ (mreach_merge p) Hs).
  destruct (mqueue pol (fun k => msucc (ask k)) n (minit p)) as [|a q] eqn:E; simpl; [constructor|].
  inversion IH as [|a0 q1 Ha Hq]; subst. apply Forall_app. split; [exact Hq|].
  apply Forall_forall. intros y Hy. exact (mreach_succ p _ a y Ha Hy).
Qed.

(** ** Depths: the pending list is sorted by depth and spans at most two depths *)

(** [l] is a subsequence of [l']. *)
Inductive subseq {A : Type} : list A -> list A -> Prop :=
  | sub_nil : subseq [] []
  | sub_keep : forall x l l', subseq l l' -> subseq (x :: l) (x :: l')
  | sub_drop : forall x l l', subseq l l' -> subseq l (x :: l').

Lemma subseq_refl : forall A (l : list A), subseq l l.
Proof. intros A l. induction l as [|x l IH]; [apply sub_nil|apply sub_keep; exact IH]. Qed.

Lemma subseq_trans : forall A (l1 l2 l3 : list A), subseq l1 l2 -> subseq l2 l3 -> subseq l1 l3.
Proof.
  intros A l1 l2 l3 H12 H23. revert l1 H12.
  induction H23 as [|x l l' H IH|x l l' H IH]; intros l1 H12.
  - exact H12.
  - inversion H12; subst.
    + apply sub_keep. apply IH. assumption.
    + apply sub_drop. apply IH. assumption.
  - apply sub_drop. apply IH. exact H12.
Qed.

Lemma subseq_map : forall A B (f : A -> B) l l', subseq l l' -> subseq (map f l) (map f l').
Proof.
  intros A B f l l' H. induction H as [|x l l' H IH|x l l' H IH]; simpl.
  - apply sub_nil.
  - apply sub_keep. exact IH.
  - apply sub_drop. exact IH.
Qed.

Lemma subseq_app : forall A (pre : list A) a l l',
  subseq l l' -> subseq (pre ++ a :: l) (pre ++ a :: l').
Proof.
  intros A pre a l l' H. induction pre as [|b pre IH]; simpl.
  - apply sub_keep. exact H.
  - apply sub_keep. exact IH.
Qed.

Lemma interleave_subseq : forall A (J R l : list A), interleave J R l -> subseq R l.
Proof.
  intros A J R l H. induction H as [|x l1 l2 l H IH|x l1 l2 l H IH].
  - apply sub_nil.
  - apply sub_drop. exact IH.
  - apply sub_keep. exact IH.
Qed.

Lemma subseq_Forall : forall A (P : A -> Prop) l l', subseq l l' -> Forall P l' -> Forall P l.
Proof.
  intros A P l l' H. induction H as [|x l l' H IH|x l l' H IH]; intros HF.
  - constructor.
  - inversion HF; subst. constructor; auto.
  - inversion HF; subst. auto.
Qed.

Lemma subseq_sorted : forall A (R : A -> A -> Prop) l l',
  subseq l l' -> StronglySorted R l' -> StronglySorted R l.
Proof.
  intros A R l l' H. induction H as [|x l l' H IH|x l l' H IH]; intros HS.
  - constructor.
  - apply StronglySorted_inv in HS as [H1 H2]. constructor; [auto|exact (subseq_Forall _ _ _ _ H H2)].
  - apply StronglySorted_inv in HS as [H1 _]. auto.
Qed.

Lemma subseq_count : forall (f : nat -> bool) l l',
  subseq l l' -> length (filter f l) <= length (filter f l').
Proof.
  intros f l l' H. induction H as [|x l l' H IH|x l l' H IH]; simpl; [lia| |];
    destruct (f x); simpl; lia.
Qed.

Lemma sorted_app : forall A (R : A -> A -> Prop) l1 l2,
  StronglySorted R l1 -> StronglySorted R l2 -> (forall a b, In a l1 -> In b l2 -> R a b) ->
  StronglySorted R (l1 ++ l2).
Proof.
  intros A R l1 l2 H1 H2 H. induction H1 as [|a l1 H1 IH Ha]; simpl; [exact H2|].
  constructor.
  - apply IH. intros x y Hx Hy. apply H; [right|]; assumption.
  - apply Forall_app. split; [exact Ha|]. apply Forall_forall. intros y Hy. apply H; [left; reflexivity|exact Hy].
Qed.

Lemma sorted_const : forall c l, Forall (fun k => k = c) l -> StronglySorted le l.
Proof.
  intros c l H. induction H as [|k l Hk H IH]; constructor; [exact IH|].
  apply Forall_forall. intros y Hy. rewrite Forall_forall in H. rewrite (H y Hy), Hk. lia.
Qed.

Lemma sorted_app_cons : forall l1 a l2, StronglySorted le (l1 ++ a :: l2) -> Forall (le a) l2.
Proof.
  induction l1 as [|b l1 IH]; intros a l2 H; simpl in H; apply StronglySorted_inv in H as [H1 H2].
  - exact H2.
  - exact (IH a l2 H1).
Qed.

(** The pending list is sorted by depth, and its depths are [d] or [S d] for some [d]. *)
Definition layered (q : list mitem) : Prop :=
  StronglySorted le (map idepth q) /\ exists d, Forall (fun k => d <= k <= S d) (map idepth q).

Lemma merge_group_subseq : forall same q q',
  merge_group same q q' -> subseq (map idepth q') (map idepth q).
Proof.
  intros same q q' (pre & x & post & J & R & m & -> & Hil & _ & _ & ->).
  rewrite !map_app. simpl. apply subseq_app. apply subseq_map. exact (interleave_subseq _ _ _ _ Hil).
Qed.

Lemma star_merge_subseq : forall same q q',
  star (merge_group same) q q' -> subseq (map idepth q') (map idepth q).
Proof.
  intros same q q' H. induction H as [a|a b c Hab _ IH]; [apply subseq_refl|].
  exact (subseq_trans _ _ _ _ IH (merge_group_subseq _ _ _ Hab)).
Qed.

(** The depths after the policy are a subsequence of the depths before it. *)
Lemma policy_subseq : forall pol n q, policy_ok pol -> subseq (map idepth (pol n q)) (map idepth q).
Proof.
  intros pol n q Hp. destruct (Hp n q) as [q0 [Hs [_ E]]]. rewrite <- E.
  exact (star_merge_subseq _ _ _ Hs).
Qed.

Lemma layered_subseq : forall q q', subseq (map idepth q') (map idepth q) -> layered q -> layered q'.
Proof.
  intros q q' H [HS [d Hd]]. split; [exact (subseq_sorted _ _ _ _ H HS)|].
  exists d. exact (subseq_Forall _ _ _ _ H Hd).
Qed.

Lemma msucc_depth : forall ask f, Forall (fun k => k = S (idepth f)) (map idepth (msucc ask f)).
Proof.
  intros ask f. apply Forall_forall. intros k Hk. apply in_map_iff in Hk as [y [<- Hy]].
  apply in_msucc in Hy. tauto.
Qed.

(** One iteration before the merges keeps the pending list layered: the front has the least
    depth, and its successors the next one. *)
Lemma bfs_step_layered : forall ask q, layered q -> layered (bfs_step (msucc ask) q).
Proof.
  intros ask [|f rest] [HS [d Hd]]; simpl.
  - split; [constructor|exists 0; constructor].
  - simpl in HS, Hd. apply StronglySorted_inv in HS as [HSr Hfr].
    inversion Hd as [|k0 l0 Hfd Hrd]; subst.
    pose proof (msucc_depth ask f) as Hs. unfold layered. rewrite map_app. split.
    + apply sorted_app; [exact HSr|exact (sorted_const _ _ Hs)|].
      intros a b Ha Hb. rewrite Forall_forall in Hrd, Hs. rewrite (Hs b Hb).
      specialize (Hrd a Ha). lia.
    + destruct (Nat.eq_dec (idepth f) d) as [E|E].
      * exists d. apply Forall_app. split; [exact Hrd|].
        eapply Forall_impl; [|exact Hs]. intros k Hk. simpl in Hk. lia.
      * exists (S d). apply Forall_app. split.
        -- rewrite Forall_forall in Hrd, Hfr |- *. intros k Hk.
           specialize (Hrd k Hk). specialize (Hfr k Hk). lia.
        -- eapply Forall_impl; [|exact Hs]. intros k Hk. simpl in Hk. lia.
Qed.

Lemma mqueue_layered : forall pol ask l n,
  policy_ok pol -> layered l -> layered (mqueue pol (fun k => msucc (ask k)) n l).
Proof.
  intros pol ask l n Hp Hl. induction n as [|n IH]; [exact Hl|].
  rewrite mqueue_S. apply (layered_subseq _ _ (policy_subseq pol n _ Hp)).
  apply bfs_step_layered. exact IH.
Qed.

Lemma minit_layered : forall p, layered (minit p).
Proof.
  intros p. split.
  - simpl. repeat constructor.
  - exists 0. simpl. constructor; [lia|constructor].
Qed.

(** ** Following a pending state through the policy *)

(** Following one pending state through a merge: under a valuation [V] that satisfies its
    path condition, it is itself after the merge, or the merge took it in and then reads its
    entries under [V]; either way at a depth no larger. *)
Lemma merge_group_track : forall same q q' V x,
  merge_group same q q' -> ForallOrdPairs idisj q -> StronglySorted le (map idepth q) ->
  In x q -> sat V (mpc (istate x)) ->
  exists y, In y q' /\ sat V (mpc (istate y)) /\ same_picks V (istate y) (istate x) /\
    idepth y <= idepth x.
Proof.
  intros same q q' V x (pre & x0 & post & J & R & m & -> & Hil & _ & Hm & ->) Hd HS Hx Hs.
  pose proof (merge_group_group_disjoint pre x0 post J R Hd Hil) as HG.
  pose proof (interleave_perm _ _ _ _ Hil) as HP.
  rewrite map_app in HS. simpl in HS. pose proof (sorted_app_cons _ _ _ HS) as Hle.
  assert (Hmerged : In x (x0 :: J) ->
            exists y, In y (pre ++ (idepth x0, m) :: R) /\ sat V (mpc (istate y)) /\
              same_picks V (istate y) (istate x) /\ idepth y <= idepth x).
  { intros HxJ. exists (idepth x0, m). split; [apply in_or_app; right; left; reflexivity|]. simpl.
    split.
    { apply (merge_states_pc _ _ V Hm). exists (istate x). split; [apply in_map; exact HxJ|exact Hs]. }
    split; [exact (merge_states_sel_unique _ _ V _ Hm HG (in_map _ _ _ HxJ) Hs)|].
    destruct HxJ as [<-|HxJ]; [lia|].
    rewrite Forall_forall in Hle. apply Hle. apply in_map.
    apply (Permutation_in _ (Permutation_sym HP)). apply in_or_app. left. exact HxJ. }
  apply in_app_or in Hx as [Hx|[<-|Hx]].
  - exists x. split; [apply in_or_app; left; exact Hx|].
    split; [exact Hs|]. split; [apply same_picks_refl|lia].
  - apply Hmerged. left. reflexivity.
  - apply (Permutation_in _ HP) in Hx. apply in_app_or in Hx as [Hx|Hx].
    + apply Hmerged. right. exact Hx.
    + exists x. split; [apply in_or_app; right; right; exact Hx|].
      split; [exact Hs|]. split; [apply same_picks_refl|lia].
Qed.

Lemma star_merge_track : forall same q q' V x,
  star (merge_group same) q q' -> ForallOrdPairs idisj q -> StronglySorted le (map idepth q) ->
  In x q -> sat V (mpc (istate x)) ->
  exists y, In y q' /\ sat V (mpc (istate y)) /\ same_picks V (istate y) (istate x) /\
    idepth y <= idepth x.
Proof.
  intros same q q' V x H. revert x. induction H as [a|a b c Hab _ IH]; intros x Hd HS Hx Hs.
  - exists x. split; [exact Hx|]. split; [exact Hs|]. split; [apply same_picks_refl|lia].
  - destruct (merge_group_track _ _ _ V x Hab Hd HS Hx Hs) as (y & Hy & Hsy & Hpy & Hdy).
    destruct (IH y (merge_group_disjoint _ _ _ Hab Hd)
                (subseq_sorted _ _ _ _ (merge_group_subseq _ _ _ Hab) HS) Hy Hsy)
      as (z & Hz & Hsz & Hpz & Hdz).
    exists z. split; [exact Hz|]. split; [exact Hsz|].
    split; [exact (same_picks_trans _ _ _ _ Hpz Hpy)|lia].
Qed.

Lemma policy_track : forall pol n q V x,
  policy_ok pol -> ForallOrdPairs idisj q -> StronglySorted le (map idepth q) ->
  In x q -> sat V (mpc (istate x)) ->
  exists y, In y (pol n q) /\ sat V (mpc (istate y)) /\ same_picks V (istate y) (istate x) /\
    idepth y <= idepth x.
Proof.
  intros pol n q V x Hp Hd HS Hx Hs. destruct (Hp n q) as [q0 [Hst [HP _]]].
  destruct (star_merge_track _ _ _ V x Hst Hd HS Hx Hs) as (y & Hy & H1 & H2 & H3).
  exists y. split; [exact (Permutation_in _ HP Hy)|auto].
Qed.

(** ** Counting pending states by depth *)

(** The number of pending states whose depth satisfies [f]. *)
Definition cnt (f : nat -> bool) (q : list mitem) : nat := length (filter f (map idepth q)).

Lemma cnt_app : forall f l1 l2, cnt f (l1 ++ l2) = cnt f l1 + cnt f l2.
Proof. intros f l1 l2. unfold cnt. rewrite map_app, filter_app, app_length. reflexivity. Qed.

Lemma cnt_cons : forall f x l, cnt f (x :: l) = (if f (idepth x) then 1 else 0) + cnt f l.
Proof. intros f x l. unfold cnt. simpl. destruct (f (idepth x)); reflexivity. Qed.

Lemma cnt_none : forall f l, (forall y, In y l -> f (idepth y) = false) -> cnt f l = 0.
Proof.
  intros f l H. induction l as [|y l IH]; [reflexivity|]. rewrite cnt_cons, (H y (or_introl eq_refl)).
  apply IH. intros z Hz. apply H. right. exact Hz.
Qed.

Lemma cnt_In : forall f l y, In y l -> f (idepth y) = true -> 1 <= cnt f l.
Proof.
  intros f l y Hy Hf. induction l as [|z l IH]; [destruct Hy|]. rewrite cnt_cons.
  destruct Hy as [->|Hy]; [rewrite Hf; lia|]. specialize (IH Hy). destruct (f (idepth z)); lia.
Qed.

Lemma cnt_zero : forall f l y, cnt f l = 0 -> In y l -> f (idepth y) = false.
Proof.
  intros f l y H Hy. destruct (f (idepth y)) eqn:E; [|reflexivity].
  pose proof (cnt_In f l y Hy E). lia.
Qed.

Lemma cnt_pos : forall f l, cnt f l <> 0 -> exists y, In y l /\ f (idepth y) = true.
Proof.
  intros f l H. induction l as [|z l IH]; [unfold cnt in H; simpl in H; lia|].
  rewrite cnt_cons in H. destruct (f (idepth z)) eqn:E.
  - exists z. split; [left; reflexivity|exact E].
  - destruct (IH H) as [y [Hy Hf]]. exists y. split; [right; exact Hy|exact Hf].
Qed.

Lemma cnt_mono : forall (f g : nat -> bool) l,
  (forall k, f k = true -> g k = true) -> cnt f l <= cnt g l.
Proof.
  intros f g l H. induction l as [|y l IH]; [unfold cnt; simpl; lia|]. rewrite !cnt_cons.
  destruct (f (idepth y)) eqn:E; [rewrite (H _ E)|destruct (g (idepth y))]; lia.
Qed.

Lemma cnt_policy : forall pol n q f, policy_ok pol -> cnt f (pol n q) <= cnt f q.
Proof. intros pol n q f Hp. exact (subseq_count f _ _ (policy_subseq pol n q Hp)). Qed.

Lemma policy_min : forall pol n q d, policy_ok pol ->
  (forall z, In z q -> d <= idepth z) -> forall z, In z (pol n q) -> d <= idepth z.
Proof.
  intros pol n q d Hp H.
  assert (Forall (fun k => d <= k) (map idepth q)) as HF by (apply Forall_map, Forall_forall; exact H).
  pose proof (subseq_Forall _ _ _ _ (policy_subseq pol n q Hp) HF) as HF1.
  rewrite Forall_forall in HF1. intros z Hz. apply HF1. apply in_map. exact Hz.
Qed.

(** ** Completeness: what stands for a state is eventually expanded *)

(** A pending state of the least depth, whose path condition holds under [V], is stood for
    under [V] by the state taken from the front at that iteration or later: each iteration
    that does not take it removes a state of its depth from the front and adds deeper ones,
    and the policy never adds states of a depth. *)
Lemma track_min : forall pol ask l, policy_ok pol -> ForallOrdPairs idisj l -> layered l ->
  forall c n x V, In x (mqueue pol (fun k => msucc (ask k)) n l) -> sat V (mpc (istate x)) ->
  (forall y, In y (mqueue pol (fun k => msucc (ask k)) n l) -> idepth x <= idepth y) ->
  cnt (Nat.eqb (idepth x)) (mqueue pol (fun k => msucc (ask k)) n l) <= c ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros pol ask l Hp Hl Hlay c. induction c as [|c IH]; intros n x V Hx Hs Hmin Hc.
  - pose proof (cnt_In _ _ x Hx (Nat.eqb_refl _)). lia.
  - pose proof (mqueue_disjoint pol ask l n Hp Hl) as Hd.
    pose proof (mqueue_layered pol ask l n Hp Hlay) as Hla.
    assert (Hq1 : mqueue pol (fun k => msucc (ask k)) (S n) l =
                  pol n (bfs_step (msucc (ask n)) (mqueue pol (fun k => msucc (ask k)) n l)))
      by reflexivity.
    remember (mqueue pol (fun k => msucc (ask k)) n l) as q eqn:Eq.
    destruct q as [|f rest]; [destruct Hx|].
    destruct (ForallOrdPairs_In _ _ _ f x Hd (or_introl eq_refl) Hx) as [<-|Hfx].
    + exists n, f. split; [lia|]. split; [apply mnth_some; exists rest; symmetry; exact Eq|].
      split; [exact Hs|apply same_picks_refl].
    + assert (In x rest) as Hxr.
      { destruct Hx as [<-|Hx]; [|exact Hx]. exfalso. destruct Hfx as [H|H]; exact (H V Hs Hs). }
      pose proof Hla as [HS _]. simpl in HS. apply StronglySorted_inv in HS as [_ Hfr].
      assert (idepth f = idepth x) as Hdf.
      { assert (idepth f <= idepth x) as H1.
        { rewrite Forall_forall in Hfr. apply Hfr. apply in_map. exact Hxr. }
        specialize (Hmin f (or_introl eq_refl)). lia. }
      assert (In x (bfs_step (msucc (ask n)) (f :: rest))) as Hxp
        by (simpl; apply in_or_app; left; exact Hxr).
      destruct (policy_track pol n _ V x Hp (bfs_step_disjoint _ _ Hd)
                  (proj1 (bfs_step_layered _ _ Hla)) Hxp Hs) as (y & Hy & Hsy & Hpy & Hdy).
      assert (Hminp : forall z, In z (bfs_step (msucc (ask n)) (f :: rest)) -> idepth x <= idepth z).
      { intros z Hz. simpl in Hz. apply in_app_or in Hz as [Hz|Hz]; [apply Hmin; right; exact Hz|].
        apply in_msucc in Hz as [Hz _]. lia. }
      pose proof (policy_min pol n _ _ Hp Hminp) as Hmin1.
      assert (idepth y = idepth x) as Hyx by (specialize (Hmin1 y Hy); lia).
      assert (Hc1 : cnt (Nat.eqb (idepth y)) (pol n (bfs_step (msucc (ask n)) (f :: rest))) <= c).
      { rewrite Hyx. apply (Nat.le_trans _ _ _ (cnt_policy pol n _ _ Hp)). simpl.
        rewrite cnt_app, (cnt_none _ (msucc (ask n) f)).
        - rewrite cnt_cons, Hdf, Nat.eqb_refl in Hc. lia.
        - intros z Hz. apply in_msucc in Hz as [Hz _]. rewrite Hz, Hdf. apply Nat.eqb_neq. lia. }
      rewrite <- Hq1 in Hy, Hmin1, Hc1.
      assert (Hmin1' : forall z, In z (mqueue pol (fun k => msucc (ask k)) (S n) l) -> idepth y <= idepth z)
        by (intros z Hz; rewrite Hyx; exact (Hmin1 z Hz)).
      destruct (IH (S n) y V Hy Hsy Hmin1' Hc1) as (n' & z & Hn' & Hz & Hsz & Hpz).
      exists n', z. split; [lia|]. split; [exact Hz|]. split; [exact Hsz|].
      exact (same_picks_trans _ _ _ _ Hpz Hpy).
Qed.

(** Any pending state whose path condition holds under [V]: while shallower states are
    pending, each iteration removes one from the front and adds none (the pending depths
    span two consecutive values), and the policy adds none. *)
Lemma track_any : forall pol ask l, policy_ok pol -> ForallOrdPairs idisj l -> layered l ->
  forall c n x V, In x (mqueue pol (fun k => msucc (ask k)) n l) -> sat V (mpc (istate x)) ->
  cnt (fun k => k <? idepth x) (mqueue pol (fun k => msucc (ask k)) n l) <= c ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros pol ask l Hp Hl Hlay c. induction c as [|c IH]; intros n x V Hx Hs Hc;
    (destruct (Nat.eq_dec (cnt (fun k => k <? idepth x) (mqueue pol (fun k => msucc (ask k)) n l)) 0)
       as [H0|H0];
     [apply (track_min pol ask l Hp Hl Hlay
              (cnt (Nat.eqb (idepth x)) (mqueue pol (fun k => msucc (ask k)) n l)) n x V Hx Hs);
        [|apply le_n];
      intros y Hy; pose proof (cnt_zero _ _ y H0 Hy) as Hy'; apply Nat.ltb_ge in Hy'; exact Hy'|]).
  - lia.
  - pose proof (mqueue_disjoint pol ask l n Hp Hl) as Hd.
    pose proof (mqueue_layered pol ask l n Hp Hlay) as Hla.
    assert (Hq1 : mqueue pol (fun k => msucc (ask k)) (S n) l =
                  pol n (bfs_step (msucc (ask n)) (mqueue pol (fun k => msucc (ask k)) n l)))
      by reflexivity.
    remember (mqueue pol (fun k => msucc (ask k)) n l) as q eqn:Eq.
    destruct q as [|f rest]; [destruct Hx|].
    pose proof Hla as [HS [d Hb]]. simpl in HS, Hb. apply StronglySorted_inv in HS as [_ Hfr].
    inversion Hb as [|k0 l0 Hfb Hrb]; subst.
    assert (idepth f < idepth x) as Hfx.
    { destruct (cnt_pos _ _ H0) as [y [Hy Hyx]]. apply Nat.ltb_lt in Hyx.
      destruct Hy as [<-|Hy]; [exact Hyx|].
      rewrite Forall_forall in Hfr. specialize (Hfr (idepth y) (in_map _ _ _ Hy)). lia. }
    assert (In x rest) as Hxr by (destruct Hx as [<-|Hx]; [lia|exact Hx]).
    assert (idepth x <= S d) as Hxd.
    { rewrite Forall_forall in Hrb. exact (proj2 (Hrb _ (in_map _ _ _ Hxr))). }
    assert (In x (bfs_step (msucc (ask n)) (f :: rest))) as Hxp
      by (simpl; apply in_or_app; left; exact Hxr).
    destruct (policy_track pol n _ V x Hp (bfs_step_disjoint _ _ Hd)
                (proj1 (bfs_step_layered _ _ Hla)) Hxp Hs) as (y & Hy & Hsy & Hpy & Hdy).
    assert (Hc1 : cnt (fun k => k <? idepth y) (pol n (bfs_step (msucc (ask n)) (f :: rest))) <= c).
    { apply (Nat.le_trans _ (cnt (fun k => k <? idepth x) (pol n (bfs_step (msucc (ask n)) (f :: rest))))).
      { apply cnt_mono. intros k Hk. apply Nat.ltb_lt in Hk. apply Nat.ltb_lt. lia. }
      apply (Nat.le_trans _ _ _ (cnt_policy pol n _ _ Hp)). simpl.
      rewrite cnt_app, (cnt_none _ (msucc (ask n) f)).
      - rewrite cnt_cons in Hc. assert (idepth f <? idepth x = true) as E by (apply Nat.ltb_lt; exact Hfx).
        rewrite E in Hc. lia.
      - intros z Hz. apply in_msucc in Hz as [Hz _]. rewrite Hz. apply Nat.ltb_ge. lia. }
    rewrite <- Hq1 in Hy, Hc1.
    destruct (IH (S n) y V Hy Hsy Hc1) as (n' & z & Hn' & Hz & Hsz & Hpz).
    exists n', z. split; [lia|]. split; [exact Hz|]. split; [exact Hsz|].
    exact (same_picks_trans _ _ _ _ Hpz Hpy).
Qed.

(** Fairness with merges: a pending state whose path condition holds under [V] is, at that
    iteration or later, stood for under [V] by the state taken from the front. *)
Lemma mtrack : forall pol ask l, policy_ok pol -> ForallOrdPairs idisj l -> layered l ->
  forall n x V, In x (mqueue pol (fun k => msucc (ask k)) n l) -> sat V (mpc (istate x)) ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros pol ask l Hp Hl Hlay n x V Hx Hs.
  exact (track_any pol ask l Hp Hl Hlay _ n x V Hx Hs (le_n _)).
Qed.

(** Lemma 3.1 for the queue: under [V], what stands for [t] is followed by what stands for
    each state reachable from [t] under [V], whatever the policy merged, for a sound oracle. *)
Lemma msearch_follow : forall pol ask l, policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  ForallOrdPairs idisj l -> layered l ->
  forall V t t', sym_steps t t' -> sat V (pc t') ->
  forall n x, msearch pol ask l n = Some x -> vequiv V (istate x) t ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ vequiv V (istate y) t'.
Proof.
  intros pol ask l Hp Ho Hl Hlay V t t' H.
  induction H as [a|a b c Hab Hbc IH]; intros Hs n x Hx Hv.
  - exists n, x. auto.
  - assert (sat V (pc b)) as Hsb by exact (sym_steps_sat_mono b c V Hbc Hs).
    apply expand_state_correct in Hab.
    destruct (Forall2_In_r (mexpand_vequiv_congr _ _ _ Hv) Hab) as [m' [Hm' Hv']].
    assert (sat V (mpc m')) as Hsm by exact (proj2 (vequiv_sat _ _ _ Hv') Hsb).
    apply mnth_some in Hx as [rest Hq].
    assert (In (S (idepth x), m') (msucc (ask n) x)) as Hy.
    { apply in_msucc. simpl. split; [reflexivity|]. split; [exact Hm'|].
      exact (mkeep_sat _ _ V (Ho n) Hsm). }
    assert (In (S (idepth x), m') (bfs_step (msucc (ask n)) (x :: rest))) as Hk'
      by (simpl; apply in_or_app; right; exact Hy).
    pose proof (mqueue_disjoint pol ask l n Hp Hl) as Hd. rewrite Hq in Hd.
    pose proof (mqueue_layered pol ask l n Hp Hlay) as Hla. rewrite Hq in Hla.
    destruct (policy_track pol n _ V _ Hp (bfs_step_disjoint _ _ Hd)
                (proj1 (bfs_step_layered _ _ Hla)) Hk' Hsm) as (z & Hz & Hsz & Hpz & _).
    assert (In z (mqueue pol (fun k => msucc (ask k)) (S n) l)) as Hz'
      by (rewrite mqueue_S, Hq; exact Hz).
    destruct (mtrack pol ask l Hp Hl Hlay (S n) z V Hz' Hsz) as (n1 & w & Hn1 & Hw & Hsw & Hpw).
    assert (vequiv V (istate w) b) as Hvw.
    { apply (vequiv_picks _ _ (istate z)); [exact Hpw|exact Hsw|exact Hsz|].
      apply (vequiv_picks _ _ m'); [exact Hpz|exact Hsz|exact Hsm|exact Hv']. }
    destruct (IH Hs n1 w Hw Hvw) as (n2 & u & Hn2 & Hu & Hvu).
    exists n2, u. split; [lia|]. auto.
Qed.

(** ** The run stream of the engine with merging: Lemma 3.1, Theorems 3.2-3.4 *)

Lemma mgrun_some : forall pol md ask p n m,
  mgrun pol md ask p n = Some m <->
  exists d, msearch pol (fun k => prune_oracle md (ask k)) (minit p) n = Some (d, m).
Proof.
  intros pol md ask p n m. unfold mgrun.
  destruct (msearch pol (fun k => prune_oracle md (ask k)) (minit p) n) as [[d m']|]; simpl.
  - split; [intros H; inversion H; subst; eauto|]. intros [d' H]. inversion H. reflexivity.
  - split; [discriminate|]. intros [d' H]. discriminate.
Qed.

Lemma mgrun_none : forall pol md ask p n,
  mgrun pol md ask p n = None <->
  mqueue pol (fun k => msucc (prune_oracle md (ask k))) n (minit p) = [].
Proof.
  intros pol md ask p n. rewrite <- (mnth_none mitem pol (fun k => msucc (prune_oracle md (ask k)))).
  unfold mgrun, msearch. destruct (mnth _ _ _ n); simpl; split; congruence.
Qed.

Lemma msearch_reach : forall pol ask p n x,
  policy_ok pol -> msearch pol ask (minit p) n = Some x -> mreach p x.
Proof.
  intros pol ask p n x Hp H. apply mnth_some in H as [rest H].
  pose proof (mqueue_reach pol ask p n Hp) as HF. rewrite H in HF.
  inversion HF as [|y q Hx _]; subst. exact Hx.
Qed.

(** Theorem 3.2 with merging, any policy of the theorems, any oracle: every state of the
    stream stands, under every valuation satisfying its path condition, for a state
    reachable from [⟨true, id, p⟩]. *)
Theorem mgrun_sound : forall pol md ask p n m,
  policy_ok pol -> mgrun pol md ask p n = Some m ->
  forall V, sat V (mpc m) -> exists t, sym_steps (sym_init p) t /\ vequiv V m t.
Proof.
  intros pol md ask p n m Hp H. apply mgrun_some in H as [d H].
  exact (msearch_reach pol _ p n (d, m) Hp H).
Qed.

(** The same for concrete states (the merged search adds none): every concrete state a state
    of the stream represents is represented by a reachable symbolic state, hence reachable. *)
Theorem mgrun_concretizes_sound : forall pol md ask p n m V c,
  policy_ok pol -> mgrun pol md ask p n = Some m -> mconcretizes V m c ->
  (exists t, sym_steps (sym_init p) t /\ concretizes V t c) /\ CReach p c.
Proof.
  intros pol md ask p n m V c Hp H Hc.
  pose proof (proj1 (mconcretizes_iff V m c) Hc) as [Hs _].
  destruct (mgrun_sound pol md ask p n m Hp H V Hs) as [t [Ht Hv]].
  assert (concretizes V t c) as Htc by exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc).
  split; [eauto|]. apply Reach_correct. exists V, t. auto.
Qed.

(** Theorem 3.3 with merging: after the first [None], only [None]. *)
Theorem mgrun_sound_termination : forall pol md ask p n,
  policy_ok pol -> mgrun pol md ask p n = None -> forall k, n <= k -> mgrun pol md ask p k = None.
Proof.
  intros pol md ask p n Hp H k Hk. apply mgrun_none. apply mgrun_none in H.
  exact (mqueue_nil pol _ (minit p) n Hp H k Hk).
Qed.

(** Lemma 3.1 with merging, sound oracle: a state of the stream that stands for [t] under [V]
    is followed by one that stands for [t'] under [V], for every [t'] reachable from [t] whose
    path condition [V] satisfies. *)
Theorem mgrun_successors : forall pol md ask p V t t' n m,
  policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  mgrun pol md ask p n = Some m -> vequiv V m t -> sym_steps t t' -> sat V (pc t') ->
  exists n' m', n <= n' /\ mgrun pol md ask p n' = Some m' /\ vequiv V m' t'.
Proof.
  intros pol md ask p V t t' n m Hp Ho H Hv Ht Hs. apply mgrun_some in H as [d H].
  destruct (msearch_follow pol _ (minit p) Hp (fun i => prune_oracle_sound md (ask i) (Ho i))
              (minit_disjoint p) (minit_layered p) V t t' Ht Hs n (d, m) H Hv)
    as (n' & [d' m'] & Hn & H' & Hv').
  exists n', m'. split; [exact Hn|]. split; [apply mgrun_some; eauto|exact Hv'].
Qed.

(** Theorem 3.4 with merging, sound oracle: every reachable state is stood for, under each
    valuation satisfying its path condition, by a state of the stream. *)
Theorem mgrun_complete : forall pol md ask p t V,
  policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  sym_steps (sym_init p) t -> sat V (pc t) ->
  exists n m, mgrun pol md ask p n = Some m /\ vequiv V m t.
Proof.
  intros pol md ask p t V Hp Ho Ht Hs.
  assert (mgrun pol md ask p 0 = Some (lift (sym_init p))) as H0 by reflexivity.
  destruct (mgrun_successors pol md ask p V (sym_init p) t 0 _ Hp Ho H0 (vequiv_lift V _) Ht Hs)
    as (n & m & _ & Hn & Hv).
  eauto.
Qed.

(** The same for concrete states: every reachable concrete state is represented by a state
    of the stream. *)
Corollary mgrun_complete_concrete : forall pol md ask p c,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> CReach p c ->
  exists n m V, mgrun pol md ask p n = Some m /\ mconcretizes V m c.
Proof.
  intros pol md ask p c Hp Ho H. apply Reach_correct in H as (V & t & Ht & Hc).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgrun_complete pol md ask p t V Hp Ho Ht Hs) as (n & m & Hn & Hv).
  exists n, m, V. split; [exact Hn|]. exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc).
Qed.

(** A stream that ends has shown, before its end, what stands for every reachable state
    under each valuation satisfying its path condition (sound oracle). *)
Theorem mgrun_finished_explored : forall pol md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgrun pol md ask p n = None ->
  forall t V, sym_steps (sym_init p) t -> sat V (pc t) ->
  exists k m, k < n /\ mgrun pol md ask p k = Some m /\ vequiv V m t.
Proof.
  intros pol md ask p n Hp Ho Hn t V Ht Hs.
  destruct (mgrun_complete pol md ask p t V Hp Ho Ht Hs) as (k & m & Hk & Hv).
  exists k, m. split; [|auto].
  destruct (Nat.lt_ge_cases k n) as [Hlt|Hge]; [exact Hlt|].
  rewrite (mgrun_sound_termination pol md ask p n Hp Hn k Hge) in Hk. discriminate.
Qed.

(** ** The bug finder with merging: classification *)

Lemma vequiv_prog : forall V m t, vequiv V m t -> mprog m = prog t.
Proof. intros V [[phi G] p] [[psi ss] q] (_ & _ & _ & E). exact E. Qed.

(** An error state of the stream stands, under every valuation satisfying its path
    condition, for a potential bug, and every concrete state it represents is a bug. *)
Lemma mgrun_error_valid : forall pol md ask p n m,
  policy_ok pol -> mgrun pol md ask p n = Some m -> is_error (mprog m) = true ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c).
Proof.
  intros pol md ask p n m Hp H He.
  assert (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) as Hpot.
  { intros V Hs. destruct (mgrun_sound pol md ask p n m Hp H V Hs) as [t [Ht Hv]].
    exists t. split; [|exact Hv]. split; [exact Ht|]. rewrite <- (vequiv_prog _ _ _ Hv). exact He. }
  split; [exact Hpot|]. intros V c Hc.
  pose proof (proj1 (mconcretizes_iff V m c) Hc) as [Hs _].
  destruct (Hpot V Hs) as [t [Ht Hv]].
  apply (potential_bug_valid p t Ht). exists V. exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc).
Qed.

Lemma mgfind_finished : forall pol E md ask p n,
  mgfind pol E md ask p n = MFinished <-> mgrun pol md ask p n = None.
Proof.
  intros pol E md ask p n. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m|]; [|split; reflexivity]. split; [|discriminate].
  destruct (is_error (mprog m)); [|discriminate].
  destruct (in_dec _ _ _); [discriminate|]. destruct (ask n (mpc m)) as [[|]|]; discriminate.
Qed.

Lemma mgfind_bug : forall pol E md ask p n m, mgfind pol E md ask p n = MBugFound m ->
  mgrun pol md ask p n = Some m /\ is_error (mprog m) = true /\ ask n (mpc m) = Some true /\
  ~ In (mkey_of E n m) (mseen pol E md ask p n).
Proof.
  intros pol E md ask p n m. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m'|]; [|discriminate].
  destruct (is_error (mprog m')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (mpc m')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma mgfind_unknown : forall pol E md ask p n m, mgfind pol E md ask p n = MUnknown m ->
  mgrun pol md ask p n = Some m /\ is_error (mprog m) = true /\ ask n (mpc m) = None.
Proof.
  intros pol E md ask p n m. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m'|]; [|discriminate].
  destruct (is_error (mprog m')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (mpc m')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma mgfind_error_state : forall pol E md ask p n m,
  mgrun pol md ask p n = Some m -> is_error (mprog m) = true ->
  mgfind pol E md ask p n = MBugFound m \/ mgfind pol E md ask p n = MUnknown m \/
  ask n (mpc m) = Some false \/ In (mkey_of E n m) (mseen pol E md ask p n).
Proof.
  intros pol E md ask p n m Hr He. unfold mgfind, mclassify. rewrite Hr, He.
  destruct (in_dec _ _ _) as [Hi|Hi]; [auto|].
  destruct (ask n (mpc m)) as [[|]|]; auto.
Qed.

Lemma mseen_S : forall pol E md ask p n,
  mseen pol E md ask p (S n) =
  match mgfind pol E md ask p n with
  | MBugFound m => if all_bugs md then mkey_of E n m :: mseen pol E md ask p n else mseen pol E md ask p n
  | _ => mseen pol E md ask p n
  end.
Proof. reflexivity. Qed.

Lemma mseen_incl : forall pol E md ask p n k,
  In k (mseen pol E md ask p n) -> In k (mseen pol E md ask p (S n)).
Proof.
  intros pol E md ask p n k H. rewrite mseen_S.
  destruct (mgfind pol E md ask p n); try exact H. destruct (all_bugs md); [right|]; exact H.
Qed.

(** The keys seen before [n] are those of the bugs reported before [n], with [--all-bugs]. *)
Theorem mseen_spec : forall pol E md ask p n k,
  In k (mseen pol E md ask p n) <->
  all_bugs md = true /\ exists j m, j < n /\ mgfind pol E md ask p j = MBugFound m /\ mkey_of E j m = k.
Proof.
  intros pol E md ask p n; induction n as [|n IH]; intros k.
  - simpl. split; [intros []|]. intros (_ & j & m & Hj & _). lia.
  - split.
    + rewrite mseen_S. intros H.
      destruct (mgfind pol E md ask p n) eqn:Hg;
        try (apply IH in H; destruct H as (Ha & j & m' & Hj & H1 & H2);
             split; [exact Ha|exists j, m'; split; [lia|auto]]).
      destruct (all_bugs md) eqn:Ha.
      * destruct H as [<-|H].
        -- split; [reflexivity|]. exists n, m. auto.
        -- apply IH in H. destruct H as (_ & j & m' & Hj & H1 & H2).
           split; [reflexivity|]. exists j, m'. split; [lia|auto].
      * apply IH in H. destruct H as (Ha' & _). discriminate.
    + intros (Ha & j & m & Hj & H1 & H2).
      destruct (Nat.eq_dec j n) as [->|Hne].
      * rewrite mseen_S, H1, Ha. left. exact H2.
      * apply mseen_incl. apply IH. split; [exact Ha|]. exists j, m. split; [lia|auto].
Qed.

(** ** Theorems 3.5-3.7 with merging *)

(** Theorem 3.5 with merging, any policy of the theorems and any oracle: every [BugFound m]
    stands, under every valuation satisfying its path condition, for a potential bug; every
    concrete state it represents is a bug; the oracle answered "satisfiable" about it. *)
Theorem mgfind_relative_soundness : forall pol E md ask p n m,
  policy_ok pol -> mgfind pol E md ask p n = MBugFound m ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c) /\ ask n (mpc m) = Some true.
Proof.
  intros pol E md ask p n m Hp H. destruct (mgfind_bug pol E md ask p n m H) as (H1 & H2 & H3 & _).
  destruct (mgrun_error_valid pol md ask p n m Hp H1 H2) as [Ha Hb]. auto.
Qed.

(** With a sound oracle, a [BugFound m] represents at least one concrete state, and each is
    a bug of [p]. *)
Theorem mgfind_bug_sat : forall pol E md ask p n m,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgfind pol E md ask p n = MBugFound m ->
  (exists V, sat V (mpc m)) /\ exists V c, mconcretizes V m c /\ IsBug p c.
Proof.
  intros pol E md ask p n m Hp Ho H. destruct (Ho n) as [Ht _].
  destruct (mgfind_relative_soundness pol E md ask p n m Hp H) as (_ & Hv & Ha).
  destruct (Ht _ Ha) as [V HV]. split; [exists V; exact HV|].
  assert (mconcretizes V m (mcompose V (mst m), mprog m)) as Hc.
  { apply mconcretizes_iff. split; [exact HV|]. split; [apply store_eq_refl|reflexivity]. }
  exists V, (mcompose V (mst m), mprog m). split; [exact Hc|exact (Hv V _ Hc)].
Qed.

(** An error state recorded undecided stands for potential bugs; every concrete state it
    represents is a bug. *)
Theorem mgfind_unknown_valid : forall pol E md ask p n m,
  policy_ok pol -> mgfind pol E md ask p n = MUnknown m ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c).
Proof.
  intros pol E md ask p n m Hp H. destruct (mgfind_unknown pol E md ask p n m H) as (H1 & H2 & _).
  exact (mgrun_error_valid pol md ask p n m Hp H1 H2).
Qed.

(** Theorem 3.7 with merging: after [Finished], only [Finished]. *)
Theorem mgfind_sound_termination : forall pol E md ask p n,
  policy_ok pol -> mgfind pol E md ask p n = MFinished ->
  forall k, n <= k -> mgfind pol E md ask p k = MFinished.
Proof.
  intros pol E md ask p n Hp H k Hk. apply mgfind_finished. apply mgfind_finished in H.
  exact (mgrun_sound_termination pol md ask p n Hp H k Hk).
Qed.

(** Theorem 3.6 with merging, sound oracle: every concrete bug is represented by an error
    state of the stream, which is reported, or recorded undecided, or whose error was
    reported before (only with [--all-bugs]). *)
Theorem mgfind_relative_completeness : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n m V, mconcretizes V m c /\ mgrun pol md ask p n = Some m /\
    (mgfind pol E md ask p n = MBugFound m \/ mgfind pol E md ask p n = MUnknown m \/
     (all_bugs md = true /\
      exists j m', j < n /\ mgfind pol E md ask p j = MBugFound m' /\ mkey_of E j m' = mkey_of E n m)).
Proof.
  intros pol E md ask p c Hp Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & [V Hc]).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgrun_complete pol md ask p t V Hp Ho Hr Hs) as (n & m & Hn & Hv).
  assert (is_error (mprog m) = true) as Hem by (rewrite (vequiv_prog _ _ _ Hv); exact He).
  exists n, m, V. split; [exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc)|]. split; [exact Hn|].
  destruct (mgfind_error_state pol E md ask p n m Hn Hem) as [H|[H|[H|H]]]; auto.
  - exfalso. exact (proj2 (Ho n) _ H V (proj2 (vequiv_sat _ _ _ Hv) Hs)).
  - right; right. apply mseen_spec in H. exact H.
Qed.

(** ** Per-error reporting and deciding oracles *)

(** With an oracle that decides, the error of every reachable error state with a
    satisfiable path condition is reported: a state of the stream at some [k] stands for it
    under [V], and a bug with the same key is reported at some [n <= k]. *)
Theorem mgfind_every_error_reported : forall pol E md ask p t V,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> potential_bug p t -> sat V (pc t) ->
  exists k m n m', mgrun pol md ask p k = Some m /\ vequiv V m t /\ n <= k /\
    mgfind pol E md ask p n = MBugFound m' /\ mkey_of E n m' = mkey_of E k m.
Proof.
  intros pol E md ask p t V Hp HD [Hr He] Hs.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (mgrun_complete pol md ask p t V Hp Ho Hr Hs) as (k & m & Hk & Hv).
  assert (is_error (mprog m) = true) as Hem by (rewrite (vequiv_prog _ _ _ Hv); exact He).
  exists k, m.
  destruct (mgfind_error_state pol E md ask p k m Hk Hem) as [H|[H|[H|H]]].
  - exists k, m. auto.
  - exfalso. destruct (mgfind_unknown pol E md ask p k m H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - exfalso. exact (proj2 (Ho k) _ H V (proj2 (vequiv_sat _ _ _ Hv) Hs)).
  - apply mseen_spec in H. destruct H as (_ & j & m' & Hj & H1 & H2).
    exists j, m'. repeat split; [exact Hk|exact Hv|lia|exact H1|exact H2].
Qed.

(** The same for concrete bugs. *)
Corollary mgfind_every_bug_error_reported : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> IsBug p c ->
  exists k m V n m', mgrun pol md ask p k = Some m /\ mconcretizes V m c /\ n <= k /\
    mgfind pol E md ask p n = MBugFound m' /\ mkey_of E n m' = mkey_of E k m.
Proof.
  intros pol E md ask p c Hp HD Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & Ht & [V Hc]).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgfind_every_error_reported pol E md ask p t V Hp HD Ht Hs)
    as (k & m & n & m' & Hk & Hv & Hn & H1 & H2).
  exists k, m, V, n, m'. split; [exact Hk|]. split; [exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc)|].
  auto.
Qed.

(** Without [--all-bugs] and with an oracle that decides, every concrete bug is represented
    by a state the stream reports. *)
Theorem mgfind_complete_first : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> all_bugs md = false -> IsBug p c ->
  exists n m V, mgfind pol E md ask p n = MBugFound m /\ mconcretizes V m c.
Proof.
  intros pol E md ask p c Hp HD Hm Hbug.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (mgfind_relative_completeness pol E md ask p c Hp Ho Hbug)
    as (n & m & V & Hc & Hn & [H|[H|[H _]]]).
  - exists n, m, V. auto.
  - exfalso. destruct (mgfind_unknown pol E md ask p n m H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - congruence.
Qed.

(** With [--all-bugs], each error is reported at most once. *)
Theorem mgfind_report_once : forall pol E md ask p n n' m m',
  all_bugs md = true ->
  mgfind pol E md ask p n = MBugFound m -> mgfind pol E md ask p n' = MBugFound m' ->
  mkey_of E n m = mkey_of E n' m' -> n = n'.
Proof.
  assert (forall pol E md ask p n n' m m', all_bugs md = true -> n < n' ->
            mgfind pol E md ask p n = MBugFound m -> mgfind pol E md ask p n' = MBugFound m' ->
            mkey_of E n m = mkey_of E n' m' -> False) as G.
  { intros pol E md ask p n n' m m' Ha Hlt H H' Hk.
    destruct (mgfind_bug pol E md ask p n' m' H') as (_ & _ & _ & Hn). apply Hn.
    apply mseen_spec. split; [exact Ha|]. exists n, m. auto. }
  intros pol E md ask p n n' m m' Ha H H' Hk.
  destruct (Nat.lt_trichotomy n n') as [Hlt|[Heq|Hgt]]; [|exact Heq|].
  - exfalso. exact (G pol E md ask p n n' m m' Ha Hlt H H' Hk).
  - exfalso. exact (G pol E md ask p n' n m' m Ha Hgt H' H (eq_sym Hk)).
Qed.

(** ** The verdict with merging *)

Lemma in_mgprefix : forall pol E md ask p n g,
  In g (mgprefix pol E md ask p n) <-> exists j, j < n /\ mgfind pol E md ask p j = g.
Proof.
  intros pol E md ask p n g. unfold mgprefix. rewrite in_map_iff. split.
  - intros (j & H1 & H2). apply in_seq in H2. exists j. split; [lia|exact H1].
  - intros (j & H1 & H2). exists j. split; [exact H2|]. apply in_seq. lia.
Qed.

Lemma existsb_mgprefix : forall pol E md ask p n f,
  existsb f (mgprefix pol E md ask p n) = true <->
  exists j, j < n /\ f (mgfind pol E md ask p j) = true.
Proof.
  intros pol E md ask p n f. rewrite existsb_exists. split.
  - intros (g & H1 & H2). apply in_mgprefix in H1. destruct H1 as (j & Hj & <-). eauto.
  - intros (j & Hj & H). exists (mgfind pol E md ask p j). split; [|exact H].
    apply in_mgprefix. eauto.
Qed.

Lemma not_existsb_mgprefix : forall pol E md ask p n f,
  existsb f (mgprefix pol E md ask p n) = false ->
  forall j, j < n -> f (mgfind pol E md ask p j) = false.
Proof.
  intros pol E md ask p n f H j Hj. destruct (f (mgfind pol E md ask p j)) eqn:Hf; [|reflexivity].
  rewrite <- H. symmetry. apply existsb_mgprefix. eauto.
Qed.

Lemma mverdict_bug_iff : forall l, mverdict_of l = VBug <-> existsb m_is_bugfound l = true.
Proof.
  intros l. unfold mverdict_of. destruct (existsb m_is_bugfound l); [split; reflexivity|].
  split; [|discriminate].
  destruct (existsb m_is_unknown l); [discriminate|]. destruct (existsb m_is_finished l); discriminate.
Qed.

Lemma mverdict_safe_iff : forall l, mverdict_of l = VSafe <->
  existsb m_is_bugfound l = false /\ existsb m_is_unknown l = false /\ existsb m_is_finished l = true.
Proof.
  intros l. unfold mverdict_of.
  destruct (existsb m_is_bugfound l), (existsb m_is_unknown l), (existsb m_is_finished l);
    split; try discriminate; try (intros (H1 & H2 & H3); discriminate); auto.
Qed.

(** A [bug] verdict means a bug, for any sound oracle. *)
Theorem mgverdict_bug : forall pol E md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgverdict pol E md ask p n = VBug -> has_bug p.
Proof.
  intros pol E md ask p n Hp Ho H. apply mverdict_bug_iff, existsb_mgprefix in H.
  destruct H as (j & _ & H). destruct (mgfind pol E md ask p j) as [| |m|] eqn:Hg; try discriminate.
  destruct (mgfind_bug_sat pol E md ask p j m Hp Ho Hg) as (_ & V & c & _ & Hc). exists c. exact Hc.
Qed.

(** Sound termination of the verdict with merging: a [safe] verdict (the stream reached
    [Finished], reported no bug and recorded no undecided error state) means no bug, for any
    sound oracle, in every mode, pruning included: every path was covered. *)
Theorem mgverdict_safe : forall pol E md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgverdict pol E md ask p n = VSafe -> ~ has_bug p.
Proof.
  intros pol E md ask p n Hp Ho H [c Hc]. apply mverdict_safe_iff in H. destruct H as (Hb & Hu & Hf).
  apply existsb_mgprefix in Hf. destruct Hf as (f & Hfn & Hf).
  assert (mgfind pol E md ask p f = MFinished) as Hfin
    by (destruct (mgfind pol E md ask p f); simpl in Hf; congruence).
  apply mgfind_finished in Hfin.
  pose proof (not_existsb_mgprefix pol E md ask p n _ Hb) as Hb'.
  pose proof (not_existsb_mgprefix pol E md ask p n _ Hu) as Hu'.
  destruct (mgfind_relative_completeness pol E md ask p c Hp Ho Hc) as (k & m & V & _ & Hk & Hcase).
  assert (k < f) as Hkf.
  { destruct (Nat.lt_ge_cases k f) as [Hlt|Hge]; [exact Hlt|].
    rewrite (mgrun_sound_termination pol md ask p f Hp Hfin k Hge) in Hk. discriminate. }
  destruct Hcase as [H|[H|(_ & j & m' & Hj & H & _)]].
  - specialize (Hb' k ltac:(lia)). rewrite H in Hb'. discriminate.
  - specialize (Hu' k ltac:(lia)). rewrite H in Hu'. discriminate.
  - specialize (Hb' j ltac:(lia)). rewrite H in Hb'. discriminate.
Qed.

(** With an oracle that decides, a program without bugs whose exploration ends gets the
    verdict [safe] once the prefix contains [Finished]. *)
Theorem mgverdict_safe_complete : forall pol E md ask p f n,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> ~ has_bug p ->
  mgfind pol E md ask p f = MFinished -> f < n -> mgverdict pol E md ask p n = VSafe.
Proof.
  intros pol E md ask p f n Hp HD Hno Hf Hfn.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  apply mverdict_safe_iff. split; [|split].
  - destruct (existsb m_is_bugfound (mgprefix pol E md ask p n)) eqn:H; [|reflexivity].
    exfalso. apply Hno. apply (mgverdict_bug pol E md ask p n Hp Ho). apply mverdict_bug_iff. exact H.
  - destruct (existsb m_is_unknown (mgprefix pol E md ask p n)) eqn:H; [|reflexivity].
    exfalso. apply existsb_mgprefix in H. destruct H as (j & _ & H).
    destruct (mgfind pol E md ask p j) as [|m| |] eqn:Hg; try discriminate.
    destruct (mgfind_unknown pol E md ask p j m Hg) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - apply existsb_mgprefix. exists f. rewrite Hf. auto.
Qed.

(** Theorem 3.8 with merging (T-soundness and T-completeness): with an oracle that decides,
    some prefix of the stream gets the verdict [bug] iff the program has a bug, in every
    mode and for every policy of the theorems. *)
Theorem mgverdict_T_sound_complete : forall pol E md ask p,
  policy_ok pol -> (forall i, oracle_decides (ask i)) ->
  (exists n, mgverdict pol E md ask p n = VBug) <-> has_bug p.
Proof.
  intros pol E md ask p Hp Hd. split.
  - intros [n H]. exact (mgverdict_bug pol E md ask p n Hp (decides_sound ask Hd) H).
  - intros [c Hc].
    destruct (mgfind_every_bug_error_reported pol E md ask p c Hp Hd Hc)
      as (k & m & V & n & m' & _ & _ & _ & H & _).
    exists (S n). apply mverdict_bug_iff, existsb_mgprefix. exists n. rewrite H. auto.
Qed.

(** Theorem 3.8 with merging, on the status stream: with an oracle that decides, the stream
    reports a bug with a satisfiable path condition iff the program has a bug. *)
Theorem mgfind_T_sound_complete : forall pol E md ask p,
  policy_ok pol -> (forall i, oracle_decides (ask i)) ->
  (exists n m, mgfind pol E md ask p n = MBugFound m /\ exists V, sat V (mpc m)) <-> has_bug p.
Proof.
  intros pol E md ask p Hp Hd. split.
  - intros (n & m & H & _).
    destruct (mgfind_bug_sat pol E md ask p n m Hp (decides_sound ask Hd) H) as (_ & V & c & _ & Hc).
    exists c. exact Hc.
  - intros [c Hc].
    destruct (mgfind_every_bug_error_reported pol E md ask p c Hp Hd Hc)
      as (k & m & V & n & m' & _ & _ & _ & H & _).
    exists n, m'. split; [exact H|].
    exact (proj1 (mgfind_bug_sat pol E md ask p n m' Hp (decides_sound ask Hd) H)).
Qed.

(** ** Without merges, the merged search is the engine's search *)

(** [m] is [t] with every entry a leaf. *)
Definition mlifted (m : mstate) (t : sym_state) : Prop :=
  let '(phi, G, p) := m in
  let '(psi, ss, q) := t in
  phi = psi /\ (forall x, msv G x = Leaf (ssv ss x)) /\ (forall a, msa G a = Leaf (ssa ss a)) /\ p = q.

Lemma mlifted_vequiv : forall m t, mlifted m t -> forall V, vequiv V m t.
Proof.
  intros [[phi G] p] [[psi ss] q] (E1 & Hv & Ha & E2) V. subst.
  split; [reflexivity|]. split; [|split; [|reflexivity]].
  - intro x. rewrite Hv. reflexivity.
  - intro a. rewrite Ha. reflexivity.
Qed.

Lemma gasubst_leaf : forall G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  (forall a, gasubst G a = Leaf (asubst ss a)) /\ (forall t, garsubst G t = Leaf (arsubst ss t)).
Proof.
  intros G ss Hv Ha. apply aexpr_arr_mut; intros; simpl;
    rewrite ?Hv, ?Ha; repeat match goal with H : _ = Leaf _ |- _ => rewrite H end; reflexivity.
Qed.

Lemma gbsubst_leaf : forall G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  forall b, gbsubst G b = Leaf (bsubst ss b).
Proof.
  intros G ss Hv Ha. destruct (gasubst_leaf G ss Hv Ha) as [E _].
  induction b; simpl; rewrite ?E; repeat match goal with H : _ = Leaf _ |- _ => rewrite H end;
    reflexivity.
Qed.

Lemma merr_succs_lifted : forall can F phi G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  Forall2 mlifted (merr_succs can F phi G) (err_succs can F phi ss).
Proof.
  intros can F phi G ss Hv Ha. unfold merr_succs, err_succs.
  destruct (can KDiv), (can KIdx); simpl; repeat constructor; auto.
Qed.

Lemma mexpand_lifted : forall phi G ss p,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  Forall2 mlifted (mexpand phi G p) (expand phi ss p).
Proof.
  intros phi G ss p Hv Ha. destruct (gasubst_leaf G ss Hv Ha) as [Ea _].
  pose proof (gbsubst_leaf G ss Hv Ha) as Eb.
  revert phi. induction p; intros phi.
  - constructor.
  - constructor.
  - simpl. rewrite Ea. constructor; [|apply merr_succs_lifted; assumption].
    simpl. split; [reflexivity|]. split; [|split; [exact Ha|reflexivity]].
    intro y. destruct (String.eqb x y); [reflexivity|apply Hv].
  - simpl. rewrite !Ea. constructor; [|apply merr_succs_lifted; assumption].
    simpl. split; [reflexivity|]. split; [exact Hv|]. split; [|reflexivity].
    intro b. destruct (String.eqb a b); [rewrite Ha; reflexivity|apply Ha].
  - destruct (stmt_eq_dec p1 Skip) as [-> | Hne].
    + simpl. repeat constructor; auto.
    + rewrite mexpand_seq, expand_seq by exact Hne.
      specialize (IHp1 phi). induction IHp1 as [|[[a1 a2] a3] [[b1 b2] b3] l1 l2 Hx _ IH];
        simpl; constructor; [|exact IH].
      destruct Hx as (E1 & E2 & E3 & E4). subst. simpl. auto.
  - simpl. rewrite Eb. constructor; [|constructor; [|apply merr_succs_lifted; assumption]];
      simpl; auto.
  - repeat constructor; auto.
  - simpl. rewrite Eb. constructor; [|apply merr_succs_lifted; assumption]. simpl. auto.
Qed.

Lemma mlifted_pc : forall m t, mlifted m t -> mpc m = pc t.
Proof. intros [[phi G] p] [[psi ss] q] (E & _). exact E. Qed.

Lemma Forall2_filter : forall A B (R : A -> B -> Prop) (f : A -> bool) (g : B -> bool) l1 l2,
  Forall2 R l1 l2 -> (forall a b, R a b -> f a = g b) -> Forall2 R (filter f l1) (filter g l2).
Proof.
  intros A B R f g l1 l2 H Hfg. induction H as [|a b l1 l2 Hab _ IH]; simpl; [constructor|].
  rewrite (Hfg a b Hab). destruct (g b); [constructor; assumption|exact IH].
Qed.

Local Notation ilifted := (fun (x : mitem) (t : sym_state) => mlifted (istate x) t).

Lemma msucc_lifted : forall ask x t,
  mlifted (istate x) t -> Forall2 ilifted (msucc ask x) (psucc ask t).
Proof.
  intros ask [d [[phi G] p]] [[psi ss] q] Hl. pose proof Hl as (E1 & Hv & Ha & E2). simpl in *. subst.
  unfold msucc, psucc. simpl.
  assert (Forall2 mlifted (filter (mkeep ask) (mexpand psi G q)) (filter (keep ask) (expand psi ss q)))
    as H.
  { apply Forall2_filter; [apply mexpand_lifted; assumption|].
    intros a b Hab. unfold mkeep, keep. rewrite (mlifted_pc _ _ Hab). reflexivity. }
  induction H as [|a b l1 l2 Hab _ IH]; simpl; constructor; [exact Hab|exact IH].
Qed.

Lemma bfs_step_lifted : forall ask q1 q2,
  Forall2 ilifted q1 q2 -> Forall2 ilifted (bfs_step (msucc ask) q1) (bfs_step (psucc ask) q2).
Proof.
  intros ask q1 q2 H. destruct H as [|x t q l Hxt Hql]; simpl; [constructor|].
  apply Forall2_app; [exact Hql|apply msucc_lifted; exact Hxt].
Qed.

Lemma mqueue_no_merge : forall ask p n,
  Forall2 ilifted (mqueue no_merge (fun k => msucc (ask k)) n (minit p))
                  (tqueue (fun k => psucc (ask k)) n (init p)).
Proof.
  intros ask p n. induction n as [|n IH].
  - simpl. constructor; [|constructor]. simpl. split; [reflexivity|]. auto.
  - rewrite mqueue_S, tqueue_S_r. apply bfs_step_lifted. exact IH.
Qed.

(** The merged search with the policy that never merges is, state by state, the engine's
    search [Engine.grun] (every entry a leaf): the model of the search with merging extends
    the engine's model, which is its case [no_merge]. *)
Theorem mgrun_no_merge : forall md ask p n,
  (forall m, mgrun no_merge md ask p n = Some m -> exists t, grun md ask p n = Some t /\ mlifted m t) /\
  (forall t, grun md ask p n = Some t -> exists m, mgrun no_merge md ask p n = Some m /\ mlifted m t).
Proof.
  intros md ask p n.
  pose proof (mqueue_no_merge (fun k => prune_oracle md (ask k)) p n) as H.
  unfold mgrun, msearch, mnth, grun, prun, tnth.
  destruct H as [|x t q l Hxt _]; simpl.
  - split; intros ? Hc; discriminate.
  - split; intros ? Hc; inversion Hc; subst; eauto.
Qed.

(** The reference's iteration is its stream's. *)
Lemma ref_mstep_queue : forall p n,
  mqueue level_policy (fun _ => msucc never) (S n) (minit p) =
  ref_mstep (mqueue level_policy (fun _ => msucc never) n (minit p)).
Proof. reflexivity. Qed.

(** The reference's stream is the run stream with pruning off ([--no-prune]), whatever the
    oracle, under [level_policy]: every theorem above about [mgrun] holds for it. *)
Lemma ref_mrun_mgrun : forall ab ask p n,
  mgrun level_policy (Mode false ab) ask p n = option_map istate (ref_mrun p n).
Proof. reflexivity. Qed.
